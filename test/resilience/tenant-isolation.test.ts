// D9 tenant isolation: every route that takes an id (read from the route table: any `:param`), called
// by every demo account (and an owner of a third organization) with another organization's ids and/or
// its X-Organization-ID, is a 403 or 404 that shows nothing of the other organization, and changes
// nothing anywhere. A route whose param has no way to get a foreign id fails the suite.
import type { Agent } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { forEachBackend, type Backend } from '../server/backends';
import { createUser, DEMO_PASSWORD, orgId, tokens } from '../server/helpers';
import { CATALOG, pathParams, routePath, validBody, validQuery, queryString, type CatalogRoute } from './catalog';
import { changedTables, digest } from './digest';
import { assertNoSecrets, auditRows, jwtSecretOf, serverSecrets, type Secret } from './secrets';
import { errorShapeProblem, makeAgent, pooled, send, type Answer } from './send';

const WIDTH = 4;
const MAX_REQUESTS = 5000;
const ACME = 'Acme Plumbing';
const BEACON = 'Beacon Electric';
const FOREIGN = 'Isolation Foreign Co';
const ORGS = [ACME, BEACON, FOREIGN] as const;
type OrgName = (typeof ORGS)[number];

/** What one organization holds that another must never see: made through the API by its owner or admin. */
interface OrgFixture {
  id: number;
  customer: { id: number; name: string; email: string };
  deletedCustomer: { id: number; name: string; email: string };
  note: { id: number; customerId: number; body: string };
  /** D46 D47: a location and a contact of `customer`. */
  location: { id: number; label: string };
  contact: { id: number; name: string };
  /** D49: a merge of two other customers, which only its organization may undo; the merged one's id answers 404 `merged` there only. */
  merge: { id: number; mergedId: number; survivorName: string };
  member: { userId: number; email: string };
  invitation: { id: number; email: string; token: string };
  /** D56: a custom field, archived so that even its delete would go through in its own organization. */
  field: { id: number; label: string };
  /** D57: a shared view, which every member of its organization sees and no one else. */
  view: { id: number; name: string };
  /** D58: a bulk action, which only its organization may undo. */
  bulk: { id: number };
}

/**
 * Where a foreign id for a `:param` comes from, by the path up to and including it. A new route under
 * /v1/customers/:id/ is covered as it is; a new kind of id needs a line here, or the suite fails.
 * Each gives one value or several (every one is tried), with the id's customer for nested notes.
 */
const ID_SOURCES: Record<string, (f: OrgFixture) => number[]> = {
  '/v1/customers/:id': (f) => [f.customer.id, f.deletedCustomer.id, f.note.customerId, f.merge.mergedId],
  '/v1/customers/:id/notes/:note_id': (f) => [f.note.id],
  '/v1/customers/:id/locations/:location_id': (f) => [f.location.id],
  '/v1/customers/:id/contacts/:contact_id': (f) => [f.contact.id],
  '/v1/customers/merges/:merge_id': (f) => [f.merge.id],
  '/v1/team/members/:user_id': (f) => [f.member.userId],
  '/v1/team/invitations/:id': (f) => [f.invitation.id],
  '/v1/custom-fields/:id': (f) => [f.field.id],
  '/v1/views/:id': (f) => [f.view.id],
  '/v1/customers/bulk/:bulk_id': (f) => [f.bulk.id],
};

/**
 * Params that name no organization's record. An invitation link's token is the capability itself (D28):
 * whoever holds the link may see that invitation, signed in or not, in whatever organization; its
 * guessing is throttled (D18) and covered by test/server/team-invitations.test.ts.
 */
const NOT_TENANT_IDS: Record<string, string> = {
  '/v1/invitations/:token': 'an invitation link is its own capability (D28), not an id within an organization',
  '/v1/password-resets/:token': 'a reset link is its own capability (D53), like an invitation link; covered by test/server/account-reset.test.ts',
  '/v1/account/sessions/:id': "a session is a person's own, in no organization (D52): another person's is a 404 (test/server/account-sessions.test.ts)",
};

/** The routes with params and, per param, its key in ID_SOURCES (the path up to and including it). */
function idRoutes(): { route: CatalogRoute; params: { name: string; key: string }[] }[] {
  return CATALOG.filter((r) => r.def.path.includes('/:')).map((route) => ({ route, params: pathParams(route.def) }));
}

test("every route with a :param has a way to get another organization's id, or is listed as not taking one", () => {
  const routes = idRoutes();
  expect(routes.length).toBeGreaterThan(10);
  const uncovered = routes.flatMap(({ route, params }) =>
    params.filter((p) => !ID_SOURCES[p.key] && !NOT_TENANT_IDS[p.key]).map((p) => `${route.label} :${p.name} (${p.key})`),
  );
  expect(uncovered, 'add an ID_SOURCES entry for each').toEqual([]);
  // The sources name real routes: a renamed route must not leave a source behind that covers nothing.
  const keys = new Set(routes.flatMap((r) => r.params.map((p) => p.key)));
  expect(Object.keys(ID_SOURCES).filter((k) => !keys.has(k))).toEqual([]);
});

forEachBackend('Tenant isolation', (backend, label) => {
  let b: Backend;
  let agent: Agent;
  const secrets: Secret[] = [];
  const fixtures = new Map<OrgName, OrgFixture>();
  /** Access tokens of the demo accounts and the third organization's owner. */
  const accounts = new Map<string, { token: string; orgs: Set<OrgName> }>();

  async function call(token: string, org: number, method: string, path: string, body?: unknown): Promise<Answer> {
    return send(b.server.port, agent, {
      method,
      path: `/api${path}`,
      headers: { Authorization: `Bearer ${token}`, 'X-Organization-ID': String(org), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  async function made(token: string, org: number, path: string, body: unknown): Promise<Record<string, unknown>> {
    const a = await call(token, org, 'POST', path, body);
    if (a.status !== 201) throw new Error(`POST ${path}: ${a.status} ${a.text}`);
    return JSON.parse(a.text) as Record<string, unknown>;
  }

  beforeAll(async () => {
    b = backend();
    agent = makeAgent();
    const db = b.server.db;
    await db.query('insert into organizations (name) values ($1)', [FOREIGN]);
    const foreignOwner = await createUser(db, { memberships: [[FOREIGN, 'owner']] });
    const foreignMember = await createUser(db, { memberships: [[FOREIGN, 'member']] });
    secrets.push({ label: 'foreign owner password', value: foreignOwner.password }, { label: 'foreign member password', value: foreignMember.password });
    const login = async (email: string, password = DEMO_PASSWORD) => {
      const t = tokens(await b.api.login(email, password));
      secrets.push({ label: `${email} access token`, value: t.access_token }, { label: `${email} refresh token`, value: t.refresh_token });
      expect((await b.api.me(t.access_token)).status).toBe(200); // D52: its last activity written now (the clock stands still), not during a digest's run
      return t.access_token;
    };
    const memberOf = async (email: string) =>
      new Set(
        (
          await db.query<{ name: OrgName }>(
            'select o.name from memberships m join organizations o on o.id = m.org_id join users u on u.id = m.user_id where u.email = $1',
            [email],
          )
        ).map((r) => r.name),
      );
    for (const email of ['owner@demo.test', 'solo@demo.test', 'viewer@demo.test', 'nobody@demo.test'])
      accounts.set(email, { token: await login(email), orgs: await memberOf(email) });
    accounts.set('foreign owner', { token: await login(foreignOwner.email, foreignOwner.password), orgs: await memberOf(foreignOwner.email) });

    // Each organization's records, made by someone who may: the demo owner (owner of Acme, admin of Beacon), the third's owner.
    const makers: Record<OrgName, string> = { [ACME]: 'owner@demo.test', [BEACON]: 'owner@demo.test', [FOREIGN]: 'foreign owner' };
    const memberEmails: Record<OrgName, string> = { [ACME]: 'solo@demo.test', [BEACON]: 'viewer@demo.test', [FOREIGN]: foreignMember.email };
    for (const name of ORGS) {
      const id = await orgId(db, name);
      const token = accounts.get(makers[name])!.token;
      const tag = `${name.split(' ')[0]!.toLowerCase()}${label.toLowerCase()}${Date.now() % 100000}`;
      const customer = await made(token, id, '/v1/customers/', { name: `Isolated ${tag} Customer`, email: `isolated.${tag}@example.test` });
      const gone = await made(token, id, '/v1/customers/', { name: `Isolated ${tag} Deleted`, email: `deleted.${tag}@example.test` });
      expect((await call(token, id, 'DELETE', `/v1/customers/${String(gone.id)}/`)).status).toBe(204);
      const note = await made(token, id, `/v1/customers/${String(customer.id)}/notes/`, { body: `Isolated note ${tag}` });
      const location = await made(token, id, `/v1/customers/${String(customer.id)}/locations/`, { label: `Isolated location ${tag}` });
      const contact = await made(token, id, `/v1/customers/${String(customer.id)}/contacts/`, { name: `Isolated contact ${tag}` });
      const [kept, merged] = [
        await made(token, id, '/v1/customers/', { name: `Isolated ${tag} Survivor` }),
        await made(token, id, '/v1/customers/', { name: `Isolated ${tag} Merged` }),
      ];
      const merge = await call(token, id, 'POST', '/v1/customers/merge/', { survivor_id: kept.id, merged_id: merged.id, fields: {} });
      expect(merge.status, merge.text).toBe(200);
      const invitation = await made(token, id, '/v1/team/invitations/', { email: `invited.${tag}@example.test`, role: 'member' });
      secrets.push({ label: `${name} invitation token`, value: String(invitation.token) });
      const field = await made(token, id, '/v1/custom-fields/', { label: `Isolated field ${tag}`, type: 'text' });
      expect((await call(token, id, 'POST', `/v1/custom-fields/${String(field.id)}/archive/`)).status).toBe(200);
      const bulkOf = await made(token, id, '/v1/customers/', { name: `Isolated ${tag} Bulk` });
      const bulk = await call(token, id, 'POST', '/v1/customers/bulk/', { ids: [bulkOf.id], action: 'set_status', status: 'lead' });
      expect(bulk.status, bulk.text).toBe(200);
      const view = await made(token, id, '/v1/views/', { name: `Isolated view ${tag}`, shared: true, params: { status: 'lead' } });
      const [member] = await db.query<{ id: unknown }>('select id from users where email = $1', [memberEmails[name]]);
      fixtures.set(name, {
        id,
        customer: { id: Number(customer.id), name: String(customer.name), email: String(customer.email) },
        deletedCustomer: { id: Number(gone.id), name: String(gone.name), email: String(gone.email) },
        note: { id: Number(note.id), customerId: Number(customer.id), body: String(note.body) },
        location: { id: Number(location.id), label: String(location.label) },
        contact: { id: Number(contact.id), name: String(contact.name) },
        merge: { id: Number((JSON.parse(merge.text) as { merge_id: unknown }).merge_id), mergedId: Number(merged.id), survivorName: String(kept.name) },
        member: { userId: Number(member?.id), email: memberEmails[name] },
        invitation: { id: Number(invitation.id), email: String(invitation.email), token: String(invitation.token) },
        field: { id: Number(field.id), label: String(field.label) },
        view: { id: Number(view.id), name: String(view.name) },
        bulk: { id: Number((JSON.parse(bulk.text) as { bulk_id: unknown }).bulk_id) },
      });
    }
  });
  afterAll(() => agent?.destroy());

  test('the ids are real: each organization reads its own records', async () => {
    for (const name of ORGS) {
      const f = fixtures.get(name)!;
      const token = accounts.get(name === FOREIGN ? 'foreign owner' : 'owner@demo.test')!.token;
      const read = await call(token, f.id, 'GET', `/v1/customers/${f.customer.id}/`);
      expect([read.status, read.text.includes(f.customer.name)]).toEqual([200, true]);
      const notes = await call(token, f.id, 'GET', `/v1/customers/${f.customer.id}/notes/`);
      expect(notes.text).toContain(f.note.body);
      const invitations = await call(token, f.id, 'GET', '/v1/team/invitations/');
      expect(invitations.text).toContain(f.invitation.email);
      const members = await call(token, f.id, 'GET', '/v1/team/members/');
      expect(members.text).toContain(f.member.email);
      const merged = await call(token, f.id, 'GET', `/v1/customers/${f.merge.mergedId}/`); // D49: names its survivor, here only
      expect([merged.status, merged.text.includes(f.merge.survivorName)]).toEqual([404, true]);
    }
  });

  test("another organization's names, emails and ids in every search and look-up: nothing of it shown", async () => {
    const db = b.server.db;
    const before = await digest(db);
    const problems: string[] = [];
    let calls = 0;
    const owner = accounts.get('owner@demo.test')!.token;
    const acme = fixtures.get(ACME)!;
    for (const other of [fixtures.get(BEACON)!, fixtures.get(FOREIGN)!]) {
      const texts = [other.customer.name, other.customer.email, other.deletedCustomer.email, other.note.body, other.member.email, other.invitation.email];
      const ids = [other.customer.id, other.deletedCustomer.id, other.note.id, other.member.userId, other.invitation.id];
      const markers = texts.map((t) => t.toLowerCase());
      /** `sent`: a value the answer may echo (a preview shows the file's own rows). */
      const check = (what: string, a: Answer, sent = '') => {
        calls += 1;
        if (a.status >= 500) problems.push(`${what}: ${a.status}`);
        const shown = markers.filter((m) => m !== sent.toLowerCase() && a.text.toLowerCase().includes(m));
        if (shown.length) problems.push(`${what}: shows ${shown.join(', ')}`);
      };
      // Every read of the route table that takes query parameters, each given the other organization's values.
      for (const route of CATALOG.filter((r) => r.def.method === 'GET' && r.def.access === 'org' && !r.def.path.includes('/:'))) {
        for (const f of route.fields.filter((f) => f.where === 'query')) {
          const values = f.spec.kind === 'intText' ? ids.map(String) : f.spec.kind === 'text' ? texts : [];
          for (const v of values) check(`${route.label}?${f.name}=${v}`, await call(owner, acme.id, 'GET', `${route.def.path}?${f.name}=${encodeURIComponent(v)}`));
        }
      }
      // An import preview looks emails up as duplicates: never in another organization.
      const csv = `name,email\r\nLookalike,${other.customer.email}\r\n`;
      const preview = await send(b.server.port, agent, {
        method: 'POST',
        path: '/api/v1/customers/import/preview/',
        body: csv,
        headers: { Authorization: `Bearer ${owner}`, 'X-Organization-ID': String(acme.id), 'Content-Type': 'text/csv' },
      });
      expect(preview.status).toBe(200);
      check('import preview', preview, other.customer.email);
      expect(JSON.parse(preview.text).rows[0].duplicate ?? null, 'a duplicate in another organization').toBeNull();
    }
    // The control: the same preview with the organization's own customer's email does find it.
    const own = await send(b.server.port, agent, {
      method: 'POST',
      path: '/api/v1/customers/import/preview/',
      body: `name,email\r\nLookalike,${acme.customer.email}\r\n`,
      headers: { Authorization: `Bearer ${owner}`, 'X-Organization-ID': String(acme.id), 'Content-Type': 'text/csv' },
    });
    expect(JSON.parse(own.text).rows[0].duplicate).not.toBeNull();
    console.log(`[tenant isolation ${label}] ${calls} searches and look-ups with another organization's values; shown ${problems.length}`);
    expect(problems, problems.slice(0, 10).join('\n')).toEqual([]);
    expect(changedTables(before, await digest(db))).toEqual([]);
  });

  test("another organization's ids and headers: every call a 403 or 404, nothing shown, nothing changed", async () => {
    const db = b.server.db;
    const markers = (f: OrgFixture) => [
      f.customer.name,
      f.customer.email,
      f.deletedCustomer.name,
      f.deletedCustomer.email,
      f.note.body,
      f.location.label,
      f.contact.name,
      f.merge.survivorName,
      f.member.email,
      f.invitation.email,
      f.field.label,
      f.view.name,
    ];
    const idPattern = (ids: number[]) => new RegExp(`"(id|user_id|customer_id|note_id|invitation_id|location_id|contact_id)"\\s*:\\s*(${ids.join('|')})\\b`);

    interface Attempt {
      label: string;
      method: string;
      path: string;
      token: string;
      org: number;
      body?: unknown;
      foreign: OrgFixture;
    }
    const attempts: Attempt[] = [];
    for (const { route, params } of idRoutes()) {
      if (params.some((p) => NOT_TENANT_IDS[p.key])) continue;
      const body = route.def.body ? validBody(route) : undefined;
      const query = queryString(validQuery(route));
      for (const [who, account] of accounts) {
        for (const header of ORGS) {
          for (const owner of ORGS) {
            if (owner === header) continue;
            const own = fixtures.get(header)!;
            const other = fixtures.get(owner)!;
            // Each param from the other organization or from the header's own, at least one from the other.
            const choices = params.map((p) => [own, other].map((f) => ({ f, values: ID_SOURCES[p.key]!(f) })));
            const combos = choices.reduce<{ f: OrgFixture; value: number }[][]>(
              (acc, options) => acc.flatMap((prefix) => options.flatMap((o) => o.values.map((value) => [...prefix, { f: o.f, value }]))),
              [[]],
            );
            for (const combo of combos) {
              if (!combo.some((c) => c.f === other)) continue;
              const values = Object.fromEntries(params.map((p, i) => [p.name, String(combo[i]!.value)]));
              attempts.push({
                label: `${who} in ${header} with ${owner}'s ${params.map((p, i) => `${p.name}=${combo[i]!.value}${combo[i]!.f === own ? '(own)' : ''}`).join(' ')}: ${route.label}`,
                method: route.def.method,
                path: routePath(route.def, values).replace(/^\/api/, '') + query,
                token: account.token,
                org: own.id,
                ...(body === undefined ? {} : { body }),
                foreign: other,
              });
            }
          }
        }
      }
    }
    expect(attempts.length).toBeLessThanOrEqual(MAX_REQUESTS);

    const before = await digest(db);
    const answers = await pooled(
      attempts.map((a) => () => call(a.token, a.org, a.method, a.path, a.body)),
      WIDTH,
    );
    const after = await digest(db);

    const wrongStatus: string[] = [];
    const leaks: string[] = [];
    const shapes: string[] = [];
    const statuses: Record<string, number> = {};
    answers.forEach((ans, i) => {
      const a = attempts[i]!;
      statuses[ans.status] = (statuses[ans.status] ?? 0) + 1;
      if (ans.status !== 403 && ans.status !== 404) wrongStatus.push(`${a.label}: ${ans.status} ${ans.text.slice(0, 160)}`);
      const text = ans.text.toLowerCase();
      const shown = markers(a.foreign).filter((m) => text.includes(m.toLowerCase()));
      const foreignIds = [a.foreign.customer.id, a.foreign.deletedCustomer.id, a.foreign.note.id, a.foreign.member.userId, a.foreign.invitation.id];
      if (shown.length || idPattern(foreignIds).test(ans.text))
        leaks.push(`${a.label}: ${ans.status} shows ${shown.join(', ') || 'a foreign id'}: ${ans.text.slice(0, 160)}`);
      const shape = errorShapeProblem(ans, a.method);
      if (shape) shapes.push(`${a.label}: ${shape}`);
    });
    const routes = new Set(attempts.map((a) => a.label.split(': ').pop()));
    console.log(
      `[tenant isolation ${label}] ${attempts.length} calls over ${routes.size} id routes by ${accounts.size} accounts; statuses ${JSON.stringify(statuses)}; ` +
        `not 403/404 ${wrongStatus.length}; leaks ${leaks.length}; tables changed ${changedTables(before, after).length} of ${Object.keys(before).length}`,
    );
    expect(wrongStatus, wrongStatus.slice(0, 10).join('\n')).toEqual([]);
    expect(leaks, leaks.slice(0, 10).join('\n')).toEqual([]);
    expect(shapes, shapes.slice(0, 10).join('\n')).toEqual([]);
    expect(changedTables(before, after), 'tables changed by calls that all had to be refused').toEqual([]);

    const bodies = answers.filter((ans) => ans.status >= 400).map((ans) => ans.text);
    assertNoSecrets({ logs: b.server.logs, bodies, auditRows: await auditRows(db), secrets: [...secrets, ...(await serverSecrets(db, await jwtSecretOf(b.server)))] });
  });
});
