// D59 through the API, on PGlite and PostgreSQL: a customer assigned to a member of its organization
// (or to none), and a role that sees only the customers assigned to the person. Each test makes an
// organization of its own: an owner, a member whose role sees only their own ('scoped'), and another
// member; the member role is narrowed through the matrix as an owner would do it.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Customer } from '../../contract/customers';
import { CUSTOMERS } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { customerPath, signIn, uniqueEmail, unique, warmedUp } from './customers-common';
import { people, type Person } from './people';

const MATRIX = '/api/v1/permissions/';
const AUDIT = '/api/v1/audit/';

forEachBackend('API customers: assigned customers and what a role sees (D59)', (backend) => {
  let b: Backend;
  beforeAll(async () => (b = await warmedUp(backend)));
  const { team } = people(() => b, 'Scope Org');

  /** An owner, a member whose role sees only their own, and an admin who sees all. */
  async function world() {
    const {
      org,
      people: [owner, scoped, admin],
    } = await team('owner', 'member', 'admin');
    // The member role narrowed, and given what a scoped member's every route needs to be tried.
    const got = await owner!.call('GET', MATRIX);
    const matrix = { ...(got.body.matrix as Record<string, string[]>) };
    matrix.member = [...matrix.member!, 'customers:export', 'customers:merge', 'audit:view'];
    const put = await owner!.call('PUT', MATRIX, { matrix, scopes: { member: 'assigned' } });
    expect(put.status, put.text).toBe(200);
    const make = async (by: Person, fields: Record<string, unknown> = {}) => {
      const r = await by.call('POST', CUSTOMERS, { name: unique('Scoped'), email: uniqueEmail(), ...fields });
      expect(r.status, r.text).toBe(201);
      return r.body as unknown as Customer;
    };
    return { org, owner: owner!, scoped: scoped!, admin: admin!, make };
  }
  const names = (r: { body: Record<string, unknown> }) => ((r.body.results as { name: string }[]) ?? []).map((c) => c.name).sort();

  test('D3 D59 the demo: tech@demo.test is a member of Beacon Electric, whose member role sees only a handful assigned to them', async () => {
    const tech = await signIn(b, 'tech@demo.test', 'Beacon Electric');
    const list = await tech.get(`${CUSTOMERS}?page_size=100`);
    expect(list.status, list.text).toBe(200);
    const mine = list.body.results as Customer[];
    expect(mine.length).toBe(5);
    expect(mine.every((c) => c.assigned_to?.id === tech.userId)).toBe(true);
    const me = await tech.get('/api/v1/auth/me/');
    expect([me.body.role, me.body.customers_scope]).toEqual(['member', 'assigned']);
    const owner = await signIn(b, 'beacon@demo.test', 'Beacon Electric');
    const all = await owner.get(`${CUSTOMERS}?page_size=100`);
    const other = (all.body.results as Customer[]).find((c) => c.assigned_to === null)!;
    expect((await tech.get(customerPath(other.id))).status).toBe(404);
    expect((all.body.count as number) > 5).toBe(true);
  });

  describe('D59 assignment', () => {
    test('D59 assigned_to is set on create and in the form, a member of the organization only; every answer carries it; the change is audited from → to', async () => {
      const { owner, scoped, admin, make } = await world();
      const c = await make(owner, { assigned_to: scoped.id });
      expect(c.assigned_to).toEqual({ id: scoped.id, name: scoped.name });
      const listed = await owner.call('GET', `${CUSTOMERS}?q=${encodeURIComponent(c.name)}`);
      expect((listed.body.results as Customer[])[0]!.assigned_to).toEqual({ id: scoped.id, name: scoped.name });

      const moved = await owner.call('PATCH', customerPath(c.id), { version: c.version, assigned_to: admin.id });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.assigned_to).toEqual({ id: admin.id, name: admin.name });
      const log = await owner.call('GET', `${AUDIT}?target_type=customer&target_id=${c.id}`);
      const entry = (log.body.results as { action: string; changes: Record<string, unknown> }[]).find((e) => e.action === 'customer.updated')!;
      expect(entry.changes.assigned_to).toEqual({ from: { id: scoped.id, name: scoped.name }, to: { id: admin.id, name: admin.name } });
      const timeline = await owner.call('GET', customerPath(c.id, 'timeline/'));
      const edits = (timeline.body.results as { action: string; changes: Record<string, unknown> }[]).filter((i) => i.action === 'customer.updated');
      expect(edits[0]!.changes.assigned_to).toEqual(entry.changes.assigned_to);

      const none = await owner.call('PATCH', customerPath(c.id), { version: moved.body.version, assigned_to: null });
      expect(none.body.assigned_to).toBeNull();
      // Someone of another organization (or no one) cannot be assigned: 400 naming the field, nothing written.
      const { people: stranger } = await team('owner');
      const refused = await owner.call('PATCH', customerPath(c.id), { version: none.body.version, assigned_to: stranger[0]!.id });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.field ?? JSON.stringify(refused.body)).toContain('assigned_to');
      expect((await owner.call('GET', customerPath(c.id))).body.version).toBe(none.body.version);
    });

    test("D59 the list's assigned filter: me, none, or a member's id; the assignees are the organization's members", async () => {
      const { owner, scoped, admin, make } = await world();
      const tag = unique('t');
      const [a, b2, n] = [
        await make(owner, { assigned_to: admin.id, tags: [tag] }),
        await make(owner, { assigned_to: scoped.id, tags: [tag] }),
        await make(owner, { tags: [tag] }),
      ];
      expect(names(await admin.call('GET', `${CUSTOMERS}?tag=${tag}&assigned=me`))).toEqual([a.name]);
      expect(names(await owner.call('GET', `${CUSTOMERS}?tag=${tag}&assigned=none`))).toEqual([n.name]);
      expect(names(await owner.call('GET', `${CUSTOMERS}?tag=${tag}&assigned=${scoped.id}`))).toEqual([b2.name]);
      expect((await owner.call('GET', `${CUSTOMERS}?assigned=someone`)).status).toBe(400);
      const all = await owner.call('GET', `${CUSTOMERS}assignees/`);
      expect(all.status, all.text).toBe(200);
      expect((all.body.results as { id: number }[]).map((p) => p.id).sort()).toEqual([owner.id, scoped.id, admin.id].sort());
      const own = await scoped.call('GET', `${CUSTOMERS}assignees/`);
      expect(own.body.results).toEqual([{ id: scoped.id, name: scoped.name }]);
    });

    test("D59 removing a member unassigns their customers in the same transaction, audited, on each customer's timeline", async () => {
      const { owner, scoped, make } = await world();
      const c = await make(owner, { assigned_to: scoped.id });
      const r = await owner.call('DELETE', `/api/v1/team/members/${scoped.id}/`);
      expect(r.status, r.text).toBe(204);
      const after = await owner.call('GET', customerPath(c.id));
      expect(after.body.assigned_to).toBeNull();
      expect(after.body.version).toBe(c.version + 1);
      const log = await owner.call('GET', `${AUDIT}?action=member.removed`);
      const entry = (log.body.results as { changes: Record<string, unknown> }[])[0]!;
      expect(entry.changes.unassigned).toBe(1);
      expect(entry.changes.customer_ids).toBeUndefined(); // kept for the timelines, not shown in the log
      const timeline = await owner.call('GET', customerPath(c.id, 'timeline/'));
      const items = timeline.body.results as { action?: string; changes?: Record<string, unknown> }[];
      expect(items.find((i) => i.action === 'customer.updated' && i.changes?.assigned_to)?.changes?.assigned_to).toEqual({
        from: { id: scoped.id, name: scoped.name },
        to: null,
      });
    });
  });

  describe('D59 a role that sees only its own', () => {
    test("D59 a scoped member's list, search, count and dashboard hold only their customers; another's is a 404 everywhere under it, as for another organization", async () => {
      const { owner, scoped, make } = await world();
      const tag = unique('t');
      const mine = await make(owner, { assigned_to: scoped.id, tags: [tag], lead_source: `${tag} fair` });
      const theirs = await make(owner, { tags: [tag], lead_source: `${tag} radio` });
      expect(names(await scoped.call('GET', `${CUSTOMERS}?tag=${tag}`))).toEqual([mine.name]);
      const list = await scoped.call('GET', CUSTOMERS);
      expect(list.body.count).toBe(1);
      expect(names(await scoped.call('GET', `${CUSTOMERS}?q=${encodeURIComponent(theirs.name)}`))).toEqual([]);
      const dash = await scoped.call('GET', '/api/v1/dashboard/');
      expect((dash.body.customers as { total: number }).total).toBe(1);
      const sources = await scoped.call('GET', `${CUSTOMERS}lead-sources/?q=${tag}`);
      expect(JSON.stringify(sources.body)).not.toContain('radio');
      const dupes = await scoped.call('GET', `${CUSTOMERS}duplicates/?email=${encodeURIComponent(theirs.email!)}`);
      expect(dupes.body.results).toEqual([]);

      const foreign = await team('owner');
      const strangers = await foreign.people[0]!.call('POST', CUSTOMERS, { name: unique('Far') });
      for (const rest of ['', 'notes/', 'timeline/']) {
        const hidden = await scoped.call('GET', customerPath(theirs.id, rest));
        const other = await scoped.call('GET', customerPath(Number(strangers.body.id), rest));
        expect(hidden.status, rest).toBe(404);
        expect(hidden.body).toEqual(other.body);
      }
      const patch = await scoped.call('PATCH', customerPath(theirs.id), { version: theirs.version, name: 'Taken' });
      expect(patch.status).toBe(404);
      expect((await scoped.call('POST', customerPath(theirs.id, 'notes/'), { body: 'hello' })).status).toBe(404);
      expect((await owner.call('GET', customerPath(theirs.id))).body.name).toBe(theirs.name);
      const csv = await scoped.call('GET', `${CUSTOMERS}export.csv`);
      expect(csv.text).toContain(mine.name);
      expect(csv.text).not.toContain(theirs.name);
    });

    test('D59 D38 a customer reassigned away, or the role narrowed, applies at the next request', async () => {
      const { owner, scoped, admin, make } = await world();
      const c = await make(owner, { assigned_to: scoped.id });
      expect((await scoped.call('GET', customerPath(c.id))).status).toBe(200);
      await owner.call('PATCH', customerPath(c.id), { version: c.version, assigned_to: admin.id });
      expect((await scoped.call('GET', customerPath(c.id))).status).toBe(404);
      // The admin sees all; narrowed, the admin sees only their own at once, without signing in again.
      const other = await make(owner);
      expect((await admin.call('GET', customerPath(other.id))).status).toBe(200);
      const got = await owner.call('GET', MATRIX);
      expect((await owner.call('PUT', MATRIX, { matrix: got.body.matrix, scopes: { admin: 'assigned' } })).status).toBe(200);
      expect((await admin.call('GET', customerPath(other.id))).status).toBe(404);
      expect((await admin.call('GET', customerPath(c.id))).status).toBe(200);
      const me = await admin.call('GET', '/api/v1/auth/me/');
      expect(me.body.customers_scope).toBe('assigned');
    });

    test("D59 a scoped member's new customers are assigned to them; they assign to no one else; a 409 duplicate_email names no one they cannot see", async () => {
      const { owner, scoped, admin, make } = await world();
      const own = await make(scoped);
      expect(own.assigned_to).toEqual({ id: scoped.id, name: scoped.name });
      const away = await scoped.call('PATCH', customerPath(own.id), { version: own.version, assigned_to: admin.id });
      expect(away.status, away.text).toBe(400);
      expect(JSON.stringify(away.body)).toContain('assigned_to');
      const hidden = await make(owner);
      const dup = await scoped.call('POST', CUSTOMERS, { name: unique('Dup'), email: hidden.email });
      expect(dup.status, dup.text).toBe(409);
      expect(dup.body.code).toBe('duplicate_email');
      expect(dup.body.detail).toBe('Another customer already has this email');
      expect(dup.text).not.toContain(hidden.name);
      const seen = await scoped.call('POST', CUSTOMERS, { name: unique('Dup'), email: own.email });
      expect(seen.body.detail).toBe(`${own.name} already has this email`);
      // D56's unique custom value: the same, naming the holder only to who sees it.
      const field = await owner.call('POST', '/api/v1/custom-fields/', { label: 'Meter serial', type: 'text', unique: true });
      expect(field.status, field.text).toBe(201);
      const key = String(field.body.key);
      const holder = await make(owner, { custom: { [key]: 'M-1' } });
      const taken = await scoped.call('POST', CUSTOMERS, { name: unique('Dup'), custom: { [key]: 'm-1' } });
      expect([taken.status, taken.body.code, taken.body.detail]).toEqual([
        409,
        'duplicate_custom_value',
        'Another customer already has this Meter serial: it must be unique',
      ]);
      expect(taken.text).not.toContain(holder.name);
      expect((await owner.call('POST', CUSTOMERS, { name: unique('Dup'), custom: { [key]: 'm-1' } })).body.detail).toBe(
        `${holder.name} already has this Meter serial: it must be unique`,
      );
    });

    test('D59 merge needs both customers visible; the activity log leaves out entries about customers they cannot see', async () => {
      const { owner, scoped, make } = await world();
      const mine = await make(owner, { assigned_to: scoped.id });
      const theirs = await make(owner);
      const preview = await scoped.call('GET', `${CUSTOMERS}merge/preview/?survivor_id=${mine.id}&merged_id=${theirs.id}`);
      expect(preview.status).toBe(404);
      const merge = await scoped.call('POST', `${CUSTOMERS}merge/`, { survivor_id: mine.id, merged_id: theirs.id });
      expect(merge.status).toBe(404);
      expect((await owner.call('GET', customerPath(theirs.id))).body.deleted_at ?? null).toBeNull();
      // The log, as a scoped role given audit:view sees it.
      const log = await scoped.call('GET', `${AUDIT}?page_size=100`);
      expect(log.status, log.text).toBe(200);
      const about = (log.body.results as { target: { type: string; id: number | null } }[]).filter((e) => e.target.type === 'customer').map((e) => e.target.id);
      expect(about).toContain(mine.id);
      expect(about).not.toContain(theirs.id);
      expect(log.text).not.toContain(theirs.name);
    });

    test('D59 D58 bulk acts only on the customers they see; assign in bulk; an undo of someone else’s action is a 404', async () => {
      const { owner, scoped, admin, make } = await world();
      const tag = unique('t');
      const mine = await make(owner, { assigned_to: scoped.id });
      const theirs = await make(owner);
      const tagged = await scoped.call('POST', `${CUSTOMERS}bulk/`, { ids: [mine.id, theirs.id], action: 'add_tag', tag });
      expect(tagged.status, tagged.text).toBe(409); // the selection holds 1 visible customer, not the 2 asked
      expect(tagged.body.count).toBe(1);
      const ok = await scoped.call('POST', `${CUSTOMERS}bulk/`, { ids: [mine.id], action: 'add_tag', tag });
      expect(ok.body.changed).toBe(1);
      expect((await owner.call('GET', customerPath(theirs.id))).body.tags).toEqual([]);
      const byFilter = await scoped.call('POST', `${CUSTOMERS}bulk/`, { filter: 'sort=name', count: 1, action: 'set_status', status: 'inactive' });
      expect(byFilter.status, byFilter.text).toBe(200);
      expect((await owner.call('GET', customerPath(theirs.id))).body.status).toBe('active');

      const assign = await owner.call('POST', `${CUSTOMERS}bulk/`, { ids: [mine.id, theirs.id], action: 'assign', assigned_to: admin.id });
      expect(assign.status, assign.text).toBe(200);
      expect(assign.body.changed).toBe(2);
      expect((await owner.call('GET', customerPath(theirs.id))).body.assigned_to).toEqual({ id: admin.id, name: admin.name });
      expect((await scoped.call('POST', `${CUSTOMERS}bulk/${assign.body.bulk_id}/undo/`)).status).toBe(404);
      const undo = await owner.call('POST', `${CUSTOMERS}bulk/${assign.body.bulk_id}/undo/`);
      expect(undo.body.restored).toBe(2);
      expect((await owner.call('GET', customerPath(mine.id))).body.assigned_to).toEqual({ id: scoped.id, name: scoped.name });
      const self = await scoped.call('POST', `${CUSTOMERS}bulk/`, { ids: [mine.id], action: 'assign', assigned_to: admin.id });
      expect(self.status).toBe(400);
    });

    test('D59 D27 an import by a scoped member updates only theirs, creates customers assigned to them, and refuses a row whose email belongs to one they cannot see', async () => {
      const { owner, scoped, make } = await world();
      const mine = await make(owner, { assigned_to: scoped.id });
      const theirs = await make(owner);
      const fresh = unique('Fresh');
      const file = `name,email,city\n${mine.name},${mine.email},Salem\n${fresh},${uniqueEmail()},Bend\n`;
      const send = (csv: string, q = '') =>
        b.api.request(`${CUSTOMERS}import/${q}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${scoped.token}`, 'X-Organization-ID': String(scoped.org), 'Content-Type': 'text/csv' },
          body: csv,
        });
      const done = await send(file, '?on_duplicate=update');
      expect(done.status, done.text).toBe(200);
      expect(done.body).toMatchObject({ created: 1, updated: 1 });
      expect((await owner.call('GET', customerPath(mine.id))).body.city).toBe('Salem');
      const created = await owner.call('GET', `${CUSTOMERS}?q=${encodeURIComponent(fresh)}`);
      expect((created.body.results as Customer[])[0]!.assigned_to).toEqual({ id: scoped.id, name: scoped.name });

      const refused = await send(`name,email,city\nAnyone,${theirs.email},Salem\n`, '?on_duplicate=update');
      expect(refused.status, refused.text).toBe(400);
      expect(refused.text).toContain('Another customer already has this email');
      expect(refused.text).not.toContain(theirs.name);
      // A unique custom value another member's customer holds: refused on its row, naming no one.
      const field = await owner.call('POST', '/api/v1/custom-fields/', { label: 'Meter serial', type: 'text', unique: true });
      await owner.call('PATCH', customerPath(theirs.id), { version: theirs.version, custom: { [String(field.body.key)]: 'M-9' } });
      const held = await send(`name,Meter serial\nSomeone,M-9\n`);
      expect(held.status, held.text).toBe(400);
      expect(held.text).toContain("is another customer's already: it must be unique");
      expect(held.text).not.toContain(theirs.name);
      expect((await owner.call('GET', customerPath(theirs.id))).body.city).toBe(theirs.city);
    });

    test("D59 D60 an import's 'Assigned to' column: a member by email or first name, a stranger refused on its row, an update shows it before → after", async () => {
      const { owner, scoped, admin, make } = await world();
      const send = (who: Person, csv: string, q = '') =>
        b.api.request(`${CUSTOMERS}import/${q}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${who.token}`, 'X-Organization-ID': String(who.org), 'Content-Type': 'text/csv' },
          body: csv,
        });
      const [first, second] = [unique('ImpA'), unique('ImpB')];
      const [mailA, mailB] = [uniqueEmail(), uniqueEmail()];
      const bad = await send(owner, `Name,Email,Assigned to\n${first},${mailA},nobody@example.test\n`, 'preview/');
      expect(bad.status, bad.text).toBe(200);
      expect((bad.body.rows as { errors: { field: string }[] }[])[0]!.errors.map((e) => e.field)).toEqual(['assigned_to']);
      const done = await send(owner, `Name,Email,Assigned to\n${first},${mailA},${scoped.email.toUpperCase()}\n${second},${mailB},${admin.name}\n`);
      expect(done.status, done.text).toBe(200);
      const byName = async (n: string) => ((await owner.call('GET', `${CUSTOMERS}?q=${encodeURIComponent(n)}`)).body.results as Customer[])[0]!;
      expect((await byName(first)).assigned_to).toEqual({ id: scoped.id, name: scoped.name });
      expect((await byName(second)).assigned_to).toEqual({ id: admin.id, name: admin.name });
      // An update: the change before → after in the preview, written by the import, on the timeline.
      const moved = `Name,Email,Assigned to\n${first},${mailA},${admin.email}\n`;
      const preview = await send(owner, moved, 'preview/?on_duplicate=update');
      expect((preview.body.rows as { changes: Record<string, unknown> }[])[0]!.changes).toEqual({
        assigned_to: { from: { id: scoped.id, name: scoped.name }, to: { id: admin.id, name: admin.name } },
      });
      expect((await send(owner, moved, '?on_duplicate=update')).body).toMatchObject({ updated: 1 });
      expect((await byName(first)).assigned_to).toEqual({ id: admin.id, name: admin.name });
      // A scoped importer names only themselves.
      const theirs = await send(scoped, `Name,Email,Assigned to\n${unique('ImpC')},${uniqueEmail()},${admin.email}\n`, 'preview/');
      expect(JSON.stringify(theirs.body.rows)).toContain('can only be you');
      await make(owner); // the organization goes on as before
    });

    test('D59 D29 the matrix: scopes per role, the owner always sees all (400), the change audited as sees from → to', async () => {
      const {
        people: [owner],
      } = await team('owner');
      const got = await owner!.call('GET', MATRIX);
      const bad = await owner!.call('PUT', MATRIX, { matrix: got.body.matrix, scopes: { owner: 'assigned' } });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('scopes.owner');
      expect((await owner!.call('PUT', MATRIX, { matrix: got.body.matrix, scopes: { viewer: 'sometimes' } })).status).toBe(400);
      const put = await owner!.call('PUT', MATRIX, { matrix: got.body.matrix, scopes: { viewer: 'assigned' } });
      expect(put.body.scopes).toEqual({ owner: 'all', admin: 'all', member: 'all', viewer: 'assigned' });
      const log = await owner!.call('GET', `${AUDIT}?action=permissions.changed`);
      const entry = (log.body.results as { changes: Record<string, { sees?: unknown }> }[])[0]!;
      expect(entry.changes.viewer?.sees).toEqual({ from: 'all', to: 'assigned' });
      const reset = await owner!.call('POST', `${MATRIX}reset/`);
      expect(reset.body.scopes).toEqual({ owner: 'all', admin: 'all', member: 'all', viewer: 'all' });
    });
  });
});
