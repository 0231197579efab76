// D56 D61: an organization's custom fields. Anyone who may see customers reads the definitions; changing
// them needs fields:manage. Routes hold no SQL; each change is one transaction with its audit entry.
import type { CustomField } from '../../../contract/custom-fields';
import { recheckMember } from '../../auth/access';
import { writeAudit } from '../../audit';
import { defineRoute, reply } from '../../route';
import { intText } from '../../schema';
import { archiveField, changeField, createField, fieldWithCount, removeField, reorder } from './definitions';
import { purgeDeletedFields } from './purge';
import { listFields } from './repo';
import { createFieldBody, orderBody, updateFieldBody } from './schema';

const BASE = '/v1/custom-fields/';
const idParam = { id: intText() };
const target = (f: Pick<CustomField, 'id' | 'label'>) => ({ type: 'custom_field', id: f.id, label: f.label });

/** GET /v1/custom-fields/: every field of both kinds in order, archived ones with `archived: true`. */
const list = defineRoute({
  method: 'GET',
  path: BASE,
  access: 'org',
  permission: 'customers:view',
  handler: async ({ tx, caller }) => ({ results: await listFields(tx, caller.org.id) }),
});

/** GET /v1/custom-fields/{id}/: one field and how many records hold a value (deleting's confirmation). */
const read = defineRoute({
  method: 'GET',
  path: `${BASE}:id/`,
  access: 'org',
  permission: 'customers:view',
  params: idParam,
  handler: ({ tx, caller, params }) => fieldWithCount(tx, caller.org.id, params.id),
});

const create = defineRoute({
  method: 'POST',
  path: BASE,
  access: 'org',
  permission: 'fields:manage',
  body: createFieldBody,
  audit: 'custom_field.created',
  async handler({ tx, ctx, caller, body, audit }) {
    const field = await createField(tx, caller.org.id, body, new Date(ctx.now()));
    const { id: _id, created_at: _at, archived: _a, archived_at: _aa, ...recorded } = field;
    audit({ target: target(field), changes: recorded });
    return reply(201, field);
  },
});

/** PATCH /v1/custom-fields/{id}/: a change that changes nothing writes nothing (no audit entry). */
const update = defineRoute({
  method: 'PATCH',
  path: `${BASE}:id/`,
  access: 'org',
  permission: 'fields:manage',
  params: idParam,
  body: updateFieldBody,
  partialBody: true,
  async handler({ tx, caller, params, body, audit }) {
    const { after, changes } = await changeField(tx, caller.org.id, params.id, body);
    if (Object.keys(changes).length) audit({ action: 'custom_field.updated', target: target(after), changes });
    return after;
  },
});

const archive = defineRoute({
  method: 'POST',
  path: `${BASE}:id/archive/`,
  access: 'org',
  permission: 'fields:manage',
  params: idParam,
  audit: 'custom_field.archived',
  async handler({ tx, ctx, caller, params, audit }) {
    const field = await archiveField(tx, caller.org.id, params.id, new Date(ctx.now()));
    audit({ target: target(field), changes: { key: field.key } });
    return field;
  },
});

const restore = defineRoute({
  method: 'POST',
  path: `${BASE}:id/restore/`,
  access: 'org',
  permission: 'fields:manage',
  params: idParam,
  audit: 'custom_field.restored',
  async handler({ tx, caller, params, audit }) {
    const field = await archiveField(tx, caller.org.id, params.id, null);
    audit({ target: target(field), changes: { key: field.key } });
    return field;
  },
});

/**
 * DELETE /v1/custom-fields/{id}/: D56 archived first; the answer says how many records held a value. D34: in a
 * transaction of its own, so the values' removal (purge.ts) starts once the field is gone for everyone.
 */
const remove = defineRoute({
  method: 'DELETE',
  path: `${BASE}:id/`,
  access: 'org',
  permission: 'fields:manage',
  params: idParam,
  transaction: false,
  async handler({ ctx, caller, params }) {
    const now = new Date(ctx.now());
    const { field, records } = await ctx.db.transaction(async (tx) => {
      await recheckMember(tx, caller, 'fields:manage', ctx.now(), false); // D38
      const out = await removeField(tx, caller.org.id, params.id, now);
      await writeAudit(
        tx,
        caller.org.id,
        { id: caller.userId, label: caller.firstName },
        'custom_field.deleted',
        {
          target: target(out.field),
          changes: { key: out.field.key, type: out.field.type, records_with_value: out.records },
        },
        now,
      );
      return out;
    });
    purgeDeletedFields(ctx.db).catch((err: unknown) => ctx.log.error(`custom field values' removal failed: ${err instanceof Error ? err.message : String(err)}`));
    return { id: field.id, label: field.label, records_with_value: records };
  },
});

/** PUT /v1/custom-fields/order/: the fields of one kind in a new order. */
const order = defineRoute({
  method: 'PUT',
  path: `${BASE}order/`,
  access: 'org',
  permission: 'fields:manage',
  body: orderBody,
  audit: 'custom_field.reordered',
  async handler({ tx, caller, body, audit }) {
    const fields = await reorder(tx, caller.org.id, body.record_kind, body.ids);
    audit({ target: { type: 'custom_field', id: null, label: body.record_kind }, changes: { order: fields.map((f) => f.label) } });
    return { results: fields };
  },
});

export const customFieldRoutes = [list, read, create, update, archive, restore, remove, order];
