// D57 saved views of the customers list through the API: personal ones for anyone who sees customers,
// shared ones with views:manage (D61), a default per person, what a view names that is gone; D9 and D57 a
// view another person keeps, or another organization's, is a 404; every change audited (D30).
import { beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_ROLE_PERMISSIONS } from '../../contract/permissions';
import { PERSONAL_VIEWS_MAX, type SavedView } from '../../contract/views';
import { expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { auditAbout, customRole, expectFieldError, expectNoChange, newActor, warmedUp, type Actor } from './customers-common';
import { addField, fieldPath } from './custom-fields-common';
import { newOrg } from './people';

const VIEWS = '/api/v1/views/';
const viewPath = (id: number) => `${VIEWS}${id}/`;
const DEFAULT = `${VIEWS}default/`;

forEachBackend('API saved views', (backend) => {
  let b: Backend;
  beforeAll(async () => {
    b = await warmedUp(backend);
  });
  /** A new organization with an owner, an admin, a member and a viewer signed in. */
  const team = async () => {
    const { name } = await newOrg(b.server.db, 'Views');
    const [owner, admin, member, viewer] = await Promise.all(['owner', 'admin', 'member', 'viewer'].map((role) => newActor(b, name, role)));
    return { name, owner: owner!, admin: admin!, member: member!, viewer: viewer! };
  };
  const save = async (who: Actor, body: Record<string, unknown>): Promise<SavedView> => {
    const r = await who.post(VIEWS, body);
    expect(r.status, r.text).toBe(201);
    return r.body as unknown as SavedView;
  };
  const namesOf = async (who: Actor) => ((await who.get(VIEWS)).body.results as SavedView[]).map((v) => v.name);

  describe('D57 personal views', () => {
    test('D57 anyone who sees customers saves a personal view of the list’s parameters and columns; it is theirs alone, listed by name', async () => {
      const t = await team();
      const params = { status: 'active', tag: 'landlord', q: '97223', sort: '-updated_at', page_size: '50' };
      const view = await save(t.viewer, { name: 'Maintenance due in 97223', params, columns: ['name', 'city', 'city'] });
      expect(view).toMatchObject({ name: 'Maintenance due in 97223', shared: false, mine: true, is_default: false, params, columns: ['name', 'city'], left_out: [] });
      expect(view.created_by).toEqual({ id: t.viewer.userId, name: expect.any(String) });
      await save(t.viewer, { name: 'another' });
      expect(await namesOf(t.viewer)).toEqual(['another', 'Maintenance due in 97223']);
      for (const other of [t.owner, t.member]) {
        expect(await namesOf(other)).toEqual([]);
        expectError(await other.get(viewPath(view.id)), 404, 'not_found');
        expectError(await other.patch(viewPath(view.id), { name: 'mine now' }), 404, 'not_found');
        expectError(await other.del(viewPath(view.id)), 404, 'not_found');
      }
    });

    test('D57 a view is kept by the server: another session of the same person finds it', async () => {
      const t = await team();
      const view = await save(t.member, { name: 'Leads', params: { status: 'lead' } });
      const again = await newActor(b, t.name, 'member');
      expect(await namesOf(again)).toEqual([]); // someone else
      const r = await t.member.get(viewPath(view.id));
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ name: 'Leads', params: { status: 'lead' } });
    });

    test('D57 renamed, changed and removed by its maker; each change audited without naming a personal view', async () => {
      const t = await team();
      const view = await save(t.member, { name: 'Leads', params: { status: 'lead' } });
      const r = await t.member.patch(viewPath(view.id), { name: 'Hot leads', params: { status: 'lead', tag: 'hot' } });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ name: 'Hot leads', params: { status: 'lead', tag: 'hot' } });
      expect((await t.member.del(viewPath(view.id))).status).toBe(204);
      expectError(await t.member.get(viewPath(view.id)), 404, 'not_found');
      const entries = await auditAbout(b.server.db, 'view', view.id);
      expect(entries.map((e) => e.action)).toEqual(['view.created', 'view.updated', 'view.deleted']);
      for (const e of entries) {
        expect(e.target_label).toBe('Personal view');
        expect(JSON.stringify(e.changes)).not.toContain('Leads');
      }
    });

    test('D57 a name its maker already uses (case ignored) is 409 duplicate_view_name; another person may use it', async () => {
      const t = await team();
      const first = await save(t.member, { name: 'Leads' });
      const r = await t.member.post(VIEWS, { name: 'LEADS' });
      expectError(r, 409, 'duplicate_view_name');
      expect(r.body.field).toBe('name');
      const second = await save(t.member, { name: 'Other' });
      expectError(await t.member.patch(viewPath(second.id), { name: 'leads' }), 409, 'duplicate_view_name');
      expect((await save(t.viewer, { name: 'Leads' })).id).not.toBe(first.id);
    });

    test(`D57 at most ${PERSONAL_VIEWS_MAX} personal views per person: then 409 too_many_views, nothing written`, async () => {
      const t = await team();
      for (let i = 0; i < PERSONAL_VIEWS_MAX; i++) await save(t.member, { name: `v${i}` });
      await expectNoChange(b.server.db, async () => expectError(await t.member.post(VIEWS, { name: 'one more' }), 409, 'too_many_views'));
    });
  });

  describe('D57 D61 shared views', () => {
    test('D61 views:manage is owner and admin by default, in every organization', async () => {
      expect(DEFAULT_ROLE_PERMISSIONS.owner).toContain('views:manage');
      expect(DEFAULT_ROLE_PERMISSIONS.admin).toContain('views:manage');
      expect(DEFAULT_ROLE_PERMISSIONS.member).not.toContain('views:manage');
      const rows = await b.server.db.query<{ n: unknown }>(
        `select count(*) as n from organizations o where not exists (select 1 from role_permissions p where p.org_id = o.id and p.role = 'admin' and p.permission = 'views:manage')`,
      );
      expect(Number(rows[0]!.n)).toBe(0);
    });

    test('D57 a shared view is seen by everyone in the organization; only views:manage shares, changes or removes one (403 otherwise)', async () => {
      const t = await team();
      expectError(await t.member.post(VIEWS, { name: 'Everyone', shared: true }), 403, 'permission_denied');
      const shared = await save(t.admin, { name: 'Commercial', shared: true, params: { type: 'commercial' } });
      expect(shared).toMatchObject({ shared: true, mine: true });
      for (const who of [t.owner, t.member, t.viewer]) expect(await namesOf(who)).toEqual(['Commercial']);
      expect((await t.member.get(viewPath(shared.id))).body).toMatchObject({ shared: true, mine: false });
      await expectNoChange(b.server.db, async () => {
        expectError(await t.member.patch(viewPath(shared.id), { name: 'Mine' }), 403, 'permission_denied');
        expectError(await t.member.del(viewPath(shared.id)), 403, 'permission_denied');
      });
      const mine = await save(t.member, { name: 'Mine' });
      expectError(await t.member.patch(viewPath(mine.id), { shared: true }), 403, 'permission_denied');
      const r = await t.owner.patch(viewPath(shared.id), { name: 'Commercial leads', params: { type: 'commercial', status: 'lead' } });
      expect(r.status, r.text).toBe(200);
      const [created, updated] = await auditAbout(b.server.db, 'view', shared.id);
      expect(created).toMatchObject({ action: 'view.created', target_label: 'Commercial', actor_id: t.admin.userId });
      expect(updated).toMatchObject({ action: 'view.updated', target_label: 'Commercial', actor_id: t.owner.userId });
      expect(updated!.changes).toMatchObject({ name: { from: 'Commercial', to: 'Commercial leads' } });
      expect((await t.owner.del(viewPath(shared.id))).status).toBe(204);
      expect(await namesOf(t.member)).toEqual(['Mine']);
    });

    test('D61 a role granted views:manage may share; the permission is checked by the server on each call', async () => {
      const t = await team();
      const role = await customRole(b.server.db, t.name, ['customers:view', 'views:manage']);
      const sharer = await newActor(b, t.name, role);
      const view = await save(sharer, { name: 'By a custom role', shared: true });
      await b.server.db.query(`delete from role_permissions where org_id = $1 and role = $2 and permission = 'views:manage'`, [sharer.org, role]);
      expectError(await sharer.patch(viewPath(view.id), { name: 'Changed' }), 403, 'permission_denied');
    });

    test('D57 unsharing makes the view the unsharer’s own; others lose it and their default of it', async () => {
      const t = await team();
      const view = await save(t.admin, { name: 'Team view', shared: true });
      expect((await t.member.send('PUT', DEFAULT, { view_id: view.id })).status).toBe(200);
      const r = await t.owner.patch(viewPath(view.id), { shared: false });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ shared: false, mine: true });
      expect(await namesOf(t.owner)).toEqual(['Team view']);
      expect(await namesOf(t.admin)).toEqual([]);
      expect(await namesOf(t.member)).toEqual([]);
      const [row] = await b.server.db.query('select 1 from saved_view_defaults where org_id = $1 and user_id = $2', [t.member.org, t.member.userId]);
      expect(row).toBeUndefined();
    });
  });

  describe('D57 the default view', () => {
    test('D57 each person chooses their own default among the views they see; null clears it; audited', async () => {
      const t = await team();
      const mine = await save(t.member, { name: 'Mine' });
      const shared = await save(t.owner, { name: 'Shared', shared: true });
      const r = await t.member.send('PUT', DEFAULT, { view_id: mine.id });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ view_id: mine.id });
      expect(((await t.member.get(VIEWS)).body.results as SavedView[]).map((v) => [v.name, v.is_default])).toEqual([
        ['Mine', true],
        ['Shared', false],
      ]);
      expect(((await t.owner.get(VIEWS)).body.results as SavedView[]).every((v) => !v.is_default)).toBe(true);
      await t.member.send('PUT', DEFAULT, { view_id: shared.id });
      expect((await t.member.get(viewPath(shared.id))).body.is_default).toBe(true);
      expect((await t.member.get(viewPath(mine.id))).body.is_default).toBe(false);
      await t.member.send('PUT', DEFAULT, { view_id: null });
      expect(((await t.member.get(VIEWS)).body.results as SavedView[]).some((v) => v.is_default)).toBe(false);
      const entries = await b.server.db.query<{ n: unknown }>(`select count(*) as n from audit_log where action = 'view.default_changed' and actor_id = $1`, [
        t.member.userId,
      ]);
      expect(Number(entries[0]!.n)).toBe(3);
    });

    test('D57 another person’s personal view, or another organization’s, cannot be a default: 404, nothing written', async () => {
      const t = await team();
      const other = await team();
      const theirs = await save(t.owner, { name: 'Owner only' });
      const foreign = await save(other.owner, { name: 'Foreign', shared: true });
      await expectNoChange(b.server.db, async () => {
        expectError(await t.member.send('PUT', DEFAULT, { view_id: theirs.id }), 404, 'not_found');
        expectError(await t.member.send('PUT', DEFAULT, { view_id: foreign.id }), 404, 'not_found');
      });
    });
  });

  describe('D57 what a view names that is gone', () => {
    test('D57 a view naming an archived or deleted custom field still opens and says what it left out', async () => {
      const t = await team();
      const size = await addField(t.owner, { label: 'Tank size', type: 'number' });
      const gate = await addField(t.owner, { label: 'Gate code' });
      const view = await save(t.member, {
        name: 'Big tanks',
        params: { [`cf.${size.key}.from`]: '50', sort: `-cf.${gate.key}` },
        columns: ['name', `cf.${size.key}`],
      });
      expect(view.left_out).toEqual([]);
      await t.owner.post(fieldPath(size.id, 'archive/'));
      const archived = (await t.member.get(viewPath(view.id))).body as unknown as SavedView;
      expect(archived.left_out).toEqual([
        { param: `cf.${size.key}.from`, label: 'Tank size', reason: 'field_archived' },
        { param: `cf.${size.key}`, label: 'Tank size', reason: 'field_archived' },
      ]);
      await t.owner.del(fieldPath(size.id));
      await t.owner.post(fieldPath(gate.id, 'archive/'));
      const after = ((await t.member.get(VIEWS)).body.results as SavedView[])[0]!;
      expect(after.left_out).toEqual([
        { param: `cf.${size.key}.from`, label: null, reason: 'field_deleted' },
        { param: `cf.${size.key}`, label: null, reason: 'field_deleted' },
        { param: 'sort', label: 'Gate code', reason: 'field_archived' },
      ]);
      expect(after.params).toEqual(view.params); // kept: restoring the field brings it back
    });

    test('D57 D59 a view filtered by a member who has left opens without that filter and says so', async () => {
      const t = await team();
      const view = await save(t.owner, { name: 'Their customers', params: { assigned: String(t.member.userId), status: 'active' } });
      expect(view.left_out).toEqual([]);
      expect((await t.owner.del(`/api/v1/team/members/${t.member.userId}/`)).status).toBe(204);
      const after = (await t.owner.get(viewPath(view.id))).body as unknown as SavedView;
      expect(after.left_out).toEqual([{ param: 'assigned', label: null, reason: 'member_removed' }]);
      expect(after.params).toEqual({ status: 'active' });
      const mine = await save(t.owner, { name: 'Mine', params: { assigned: 'me' } });
      expect(((await t.owner.get(viewPath(mine.id))).body as unknown as SavedView).left_out).toEqual([]);
    });
  });

  describe('D57 bad input', () => {
    test.each([
      ['name', { name: '' }],
      ['name', { name: 'x'.repeat(61) }],
      ['params.page', { name: 'a', params: { page: '3' } }],
      ['params.view', { name: 'a', params: { view: '1' } }],
      ['params.status', { name: 'a', params: { status: 'gone' } }],
      ['params.page_size', { name: 'a', params: { page_size: '1000' } }],
      ['params.sort', { name: 'a', params: { sort: 'password' } }],
      ['params.assigned', { name: 'a', params: { assigned: 'someone' } }],
      ['params.q', { name: 'a', params: { q: 42 } }],
      ['params.q', { name: 'a', params: { q: 'x'.repeat(501) } }],
      ['params', { name: 'a', params: ['status'] }],
      ['columns[0]', { name: 'a', columns: ['Robert"); drop table customers'] }],
      ['shared', { name: 'a', shared: 'yes' }],
    ])('D57 %s refused with a 400 naming it, nothing written (%j)', async (field, body) => {
      const t = await team();
      await expectNoChange(b.server.db, async () => expectFieldError(await t.member.post(VIEWS, body), field));
    });

    test('D57 a member of another organization gets 404 for every call on a view', async () => {
      const t = await team();
      const other = await team();
      const view = await save(t.owner, { name: 'Ours', shared: true });
      await expectNoChange(b.server.db, async () => {
        for (const r of [await other.owner.get(viewPath(view.id)), await other.owner.patch(viewPath(view.id), { name: 'x' }), await other.owner.del(viewPath(view.id))]) {
          expectError(r, 404, 'not_found');
        }
      });
      expect(await namesOf(other.owner)).toEqual([]);
    });
  });
});
