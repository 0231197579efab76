// D67: everything an organization holds, for an owner, as one ZIP of CSV files (export-repo.ts reads them),
// streamed as it is read, with Node's own zlib (server/zip.ts). Audited when it starts.
import type { ServerResponse } from 'node:http';
import { writeAudit } from '../../audit';
import type { Ctx } from '../../context';
import { csvLine } from '../../csv';
import { listFields } from '../../custom-fields';
import { BASE_SECURITY_HEADERS, HttpError } from '../../http';
import { defineRoute, RAW } from '../../route';
import { zipWriter } from '../../zip';
import { type Sheet, sheets } from './export-repo';

/** Bytes of CSV gathered before they go to the deflater. */
const CHUNK = 64 * 1024;

/**
 * POST /v1/organization/export/: D67 an owner's export of everything (a role, not a permission, like the
 * settings). A POST: it writes its audit entry. Outside a transaction: it reads for as long as the file takes.
 */
const exportAll = defineRoute({
  method: 'POST',
  path: '/v1/organization/export/',
  access: 'org',
  permission: 'customers:export',
  transaction: false,
  async handler({ ctx, res, caller }) {
    if (caller.org.role !== 'owner') throw new HttpError(403, 'owner_required', 'Only an owner can export all of the organization’s data');
    const orgId = caller.org.id;
    const now = new Date(ctx.now());
    const fields = await listFields(ctx.db, orgId);
    const files = sheets(ctx.db, orgId, fields);
    await writeAudit(
      ctx.db,
      orgId,
      { id: caller.userId, label: caller.firstName },
      'organization.exported',
      {
        target: { type: 'organization', id: orgId, label: 'Everything' },
        changes: { files: files.map((f) => f.name) },
      },
      now,
    );
    res.writeHead(200, {
      ...BASE_SECURITY_HEADERS,
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="organization-${orgId}-${now.toISOString().slice(0, 10)}.zip"`,
      'Cache-Control': 'no-store',
    });
    await streamZip(ctx, res, files, now);
    return RAW;
  },
});

async function streamZip(ctx: Ctx, res: ServerResponse, files: Sheet[], now: Date): Promise<void> {
  try {
    const zip = zipWriter(res, now);
    for (const file of files) {
      await zip.entry(file.name, async (write) => {
        let chunk = `\uFEFF${csvLine(file.header)}`;
        for await (const rows of file.rows) {
          for (const r of rows) chunk += csvLine(file.cells(r));
          if (chunk.length >= CHUNK) {
            await write(chunk);
            chunk = '';
          }
          if (res.destroyed) return;
        }
        await write(chunk);
      });
      if (res.destroyed) return;
    }
    await zip.end();
    res.end();
  } catch (err) {
    // Headers are gone: the only honest signal left is a cut-off download.
    ctx.log.error(`organization export failed: ${err instanceof Error ? err.message : String(err)}`);
    res.destroy();
  }
}

export const exportRoutes = [exportAll];
