// D59 the tenant-isolation suite's scope dimension: a member whose role sees only the customers assigned
// to them calls every route that reads or changes a customer or anything under it (found from the route
// table: every route with a param under /v1/customers/), with the ids of customers of their own
// organization not assigned to them. Each answer must be the answer the same call gets with another
// organization's ids (status and body), show nothing of those customers, and change nothing. Then every
// read without params is given those customers' names, emails and ids: nothing of them is shown.
import type { Agent } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { forEachBackend, type Backend } from '../server/backends';
import { createUser, orgId, tokens } from '../server/helpers';
import { CATALOG, pathParams, queryString, routePath, validBody, validQuery, type CatalogRoute } from './catalog';
import { changedTables, digest } from './digest';
import { makeAgent, pooled, send, type Answer } from './send';

const WIDTH = 4;
const SCOPED_ORG = 'Scope Isolation Co';
const FOREIGN_ORG = 'Scope Isolation Foreign Co';

/** What the owner makes: customers and what they hold, none assigned to the scoped member unless `assignedTo`. */
interface Held {
  customer: { id: number; name: string; email: string };
  deleted: { id: number; name: string; email: string };
  note: { id: number; body: string };
  location: { id: number; label: string };
  contact: { id: number; name: string };
  merge: { id: number; mergedId: number; survivorName: string };
  bulk: { id: number };
}

/** Where an id of each customer-side `:param` comes from (the path up to and including it). */
const SOURCES: Record<string, (h: Held) => number[]> = {
  '/v1/customers/:id': (h) => [h.customer.id, h.deleted.id, h.merge.mergedId],
  '/v1/customers/:id/notes/:note_id': (h) => [h.note.id],
  '/v1/customers/:id/locations/:location_id': (h) => [h.location.id],
  '/v1/customers/:id/contacts/:contact_id': (h) => [h.contact.id],
  '/v1/customers/merges/:merge_id': (h) => [h.merge.id],
  '/v1/customers/bulk/:bulk_id': (h) => [h.bulk.id],
};

function customerRoutes(): { route: CatalogRoute; params: { name: string; key: string }[] }[] {
  return CATALOG.filter((r) => r.def.access === 'org' && r.def.path.startsWith('/v1/customers/') && r.def.path.includes('/:')).map((route) => ({
    route,
    params: pathParams(route.def),
  }));
}

test('D59 every route with a param under /v1/customers/ has a source of ids for the scope dimension', () => {
  const routes = customerRoutes();
  expect(routes.length).toBeGreaterThan(15);
  const uncovered = routes.flatMap(({ route, params }) => params.filter((p) => !SOURCES[p.key]).map((p) => `${route.label} :${p.name}`));
  expect(uncovered, 'add a SOURCES entry for each').toEqual([]);
});

forEachBackend('D59 scope isolation', (backend, label) => {
  let b: Backend;
  let agent: Agent;
  let scopedToken = '';
  let foreignToken = '';
  const org = { scoped: 0, foreign: 0 };
  let hidden: Held;
  let foreign: Held;
  let own: Held;

  const call = (token: string, o: number, method: string, path: string, body?: unknown): Promise<Answer> =>
    send(b.server.port, agent, {
      method,
      path: `/api${path}`,
      headers: { Authorization: `Bearer ${token}`, 'X-Organization-ID': String(o), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const made = async (token: string, o: number, path: string, body: unknown) => {
    const a = await call(token, o, 'POST', path, body);
    if (a.status !== 201 && a.status !== 200) throw new Error(`POST ${path}: ${a.status} ${a.text}`);
    return JSON.parse(a.text) as Record<string, unknown>;
  };
  async function hold(token: string, o: number, tag: string, assignedTo: number | null): Promise<Held> {
    const assigned = assignedTo === null ? {} : { assigned_to: assignedTo };
    const customer = await made(token, o, '/v1/customers/', { name: `Scoped ${tag} Customer`, email: `scoped.${tag}@example.test`, ...assigned });
    const gone = await made(token, o, '/v1/customers/', { name: `Scoped ${tag} Deleted`, email: `gone.${tag}@example.test`, ...assigned });
    expect((await call(token, o, 'DELETE', `/v1/customers/${String(gone.id)}/`)).status).toBe(204);
    const note = await made(token, o, `/v1/customers/${String(customer.id)}/notes/`, { body: `Scoped note ${tag}` });
    const location = await made(token, o, `/v1/customers/${String(customer.id)}/locations/`, { label: `Scoped location ${tag}` });
    const contact = await made(token, o, `/v1/customers/${String(customer.id)}/contacts/`, { name: `Scoped contact ${tag}` });
    const kept = await made(token, o, '/v1/customers/', { name: `Scoped ${tag} Survivor`, ...assigned });
    const merged = await made(token, o, '/v1/customers/', { name: `Scoped ${tag} Merged`, ...assigned });
    const merge = await made(token, o, '/v1/customers/merge/', { survivor_id: kept.id, merged_id: merged.id, fields: {} });
    const bulkOf = await made(token, o, '/v1/customers/', { name: `Scoped ${tag} Bulk`, ...assigned });
    const bulk = await made(token, o, '/v1/customers/bulk/', { ids: [bulkOf.id], action: 'set_status', status: 'lead' });
    return {
      customer: { id: Number(customer.id), name: String(customer.name), email: String(customer.email) },
      deleted: { id: Number(gone.id), name: String(gone.name), email: String(gone.email) },
      note: { id: Number(note.id), body: String(note.body) },
      location: { id: Number(location.id), label: String(location.label) },
      contact: { id: Number(contact.id), name: String(contact.name) },
      merge: { id: Number(merge.merge_id), mergedId: Number(merged.id), survivorName: String(kept.name) },
      bulk: { id: Number(bulk.bulk_id) },
    };
  }
  const markers = (h: Held) =>
    [h.customer.name, h.customer.email, h.deleted.name, h.deleted.email, h.note.body, h.location.label, h.contact.name, h.merge.survivorName].map((m) => m.toLowerCase());

  beforeAll(async () => {
    b = backend();
    agent = makeAgent();
    const db = b.server.db;
    await db.query('insert into organizations (name) values ($1), ($2)', [SCOPED_ORG, FOREIGN_ORG]);
    [org.scoped, org.foreign] = [await orgId(db, SCOPED_ORG), await orgId(db, FOREIGN_ORG)];
    const owner = await createUser(db, { memberships: [[SCOPED_ORG, 'owner']] });
    const member = await createUser(db, { memberships: [[SCOPED_ORG, 'member']] });
    const foreignOwner = await createUser(db, { memberships: [[FOREIGN_ORG, 'owner']] });
    const token = async (u: { email: string; password: string }) => tokens(await b.api.login(u.email, u.password)).access_token;
    const ownerToken = await token(owner);
    [scopedToken, foreignToken] = [await token(member), await token(foreignOwner)];
    // The member role sees only its own, and may do everything to a customer (so a refusal is the scope's, never a permission's).
    const matrix = JSON.parse((await call(ownerToken, org.scoped, 'GET', '/v1/permissions/')).text).matrix as Record<string, string[]>;
    matrix.member = ['dashboard:view', 'customers:view', 'customers:create', 'customers:update', 'customers:delete', 'customers:export', 'customers:merge', 'audit:view'];
    const put = await call(ownerToken, org.scoped, 'PUT', '/v1/permissions/', { matrix, scopes: { member: 'assigned' } });
    expect(put.status, put.text).toBe(200);
    const tag = `${label.toLowerCase()}${Date.now() % 100000}`;
    hidden = await hold(ownerToken, org.scoped, `hidden${tag}`, null);
    own = await hold(ownerToken, org.scoped, `own${tag}`, member.id);
    foreign = await hold(foreignToken, org.foreign, `foreign${tag}`, null);
  });
  afterAll(() => agent?.destroy());

  test('D59 the scoped member reaches their own customers: the ids are real', async () => {
    const read = await call(scopedToken, org.scoped, 'GET', `/v1/customers/${own.customer.id}/`);
    expect([read.status, read.text.includes(own.customer.name)]).toEqual([200, true]);
    expect((await call(scopedToken, org.scoped, 'GET', `/v1/customers/${own.customer.id}/notes/`)).text).toContain(own.note.body);
    expect((await call(scopedToken, org.foreign, 'GET', '/v1/customers/')).status).toBe(403); // and no other organization at all
  });

  test("D59 every customer route with another member's customer answers as for another organization's: nothing shown, nothing changed", async () => {
    const db = b.server.db;
    interface Attempt {
      label: string;
      method: string;
      path: string;
      twin: string;
      body?: unknown;
      twinBody?: unknown;
    }
    const attempts: Attempt[] = [];
    for (const { route, params } of customerRoutes()) {
      const body = route.def.body ? validBody(route) : undefined;
      const query = queryString(validQuery(route));
      // Each param from the hidden set or the member's own, at least one hidden; the twin puts the foreign organization's in the hidden's places.
      const combos = params.reduce<{ hidden: boolean; value: number; twin: number }[][]>(
        (acc, p) =>
          acc.flatMap((prefix) => [
            ...SOURCES[p.key]!(hidden).map((value, i) => [...prefix, { hidden: true, value, twin: SOURCES[p.key]!(foreign)[i]! }]),
            ...SOURCES[p.key]!(own).map((value) => [...prefix, { hidden: false, value, twin: value }]),
          ]),
        [[]],
      );
      for (const combo of combos) {
        if (!combo.some((c) => c.hidden)) continue;
        const values = Object.fromEntries(params.map((p, i) => [p.name, String(combo[i]!.value)]));
        const twins = Object.fromEntries(params.map((p, i) => [p.name, String(combo[i]!.twin)]));
        attempts.push({
          label: `${route.label} ${params.map((p, i) => `${p.name}=${combo[i]!.value}${combo[i]!.hidden ? '' : '(own)'}`).join(' ')}`,
          method: route.def.method,
          path: routePath(route.def, values).replace(/^\/api/, '') + query,
          twin: routePath(route.def, twins).replace(/^\/api/, '') + query,
          ...(body === undefined ? {} : { body, twinBody: body }),
        });
      }
    }
    const before = await digest(db);
    const answers = await pooled(
      attempts.map((a) => () => call(scopedToken, org.scoped, a.method, a.path, a.body)),
      WIDTH,
    );
    const after = await digest(db);
    // The twins, after the digest: the same calls with the foreign organization's ids (refused the same way, or the suite says where not).
    const twins = await pooled(
      attempts.map((a) => () => call(scopedToken, org.scoped, a.method, a.twin, a.twinBody)),
      WIDTH,
    );
    const hiddenMarkers = markers(hidden);
    const hiddenIds = new RegExp(`"(id|customer_id|note_id|location_id|contact_id)"\\s*:\\s*(${[hidden.customer.id, hidden.deleted.id, hidden.note.id].join('|')})\\b`);
    const unlike: string[] = [];
    const leaks: string[] = [];
    answers.forEach((ans, i) => {
      const a = attempts[i]!;
      const twin = twins[i]!;
      if (ans.status !== twin.status || ans.text !== twin.text)
        unlike.push(`${a.label}: ${ans.status} ${ans.text.slice(0, 120)} — another organization's: ${twin.status} ${twin.text.slice(0, 120)}`);
      const shown = hiddenMarkers.filter((m) => ans.text.toLowerCase().includes(m));
      if (shown.length || hiddenIds.test(ans.text)) leaks.push(`${a.label}: ${ans.status} shows ${shown.join(', ') || 'an id'}`);
    });
    console.log(
      `[scope isolation ${label}] ${attempts.length} calls over ${customerRoutes().length} customer routes; unlike another organization's ${unlike.length}; leaks ${leaks.length}`,
    );
    expect(unlike, unlike.slice(0, 10).join('\n')).toEqual([]);
    expect(leaks, leaks.slice(0, 10).join('\n')).toEqual([]);
    expect(changedTables(before, after), 'tables changed by calls that all had to be refused').toEqual([]);
  });

  test("D59 every read without params, given another member's customers' names, emails and ids, shows nothing of them", async () => {
    const db = b.server.db;
    const before = await digest(db);
    const problems: string[] = [];
    let calls = 0;
    const texts = [hidden.customer.name, hidden.customer.email, hidden.deleted.email, hidden.note.body, hidden.location.label, hidden.contact.name];
    const ids = [hidden.customer.id, hidden.deleted.id, hidden.note.id, hidden.merge.mergedId];
    const hiddenMarkers = markers(hidden);
    const check = (what: string, a: Answer, sent = '') => {
      calls += 1;
      if (a.status >= 500) problems.push(`${what}: ${a.status}`);
      const shown = hiddenMarkers.filter((m) => m !== sent.toLowerCase() && a.text.toLowerCase().includes(m));
      if (shown.length) problems.push(`${what}: shows ${shown.join(', ')}`);
    };
    for (const route of CATALOG.filter((r) => r.def.method === 'GET' && r.def.access === 'org' && !r.def.path.includes('/:'))) {
      check(route.label, await call(scopedToken, org.scoped, 'GET', route.def.path));
      for (const f of route.fields.filter((x) => x.where === 'query')) {
        const values = f.spec.kind === 'intText' ? ids.map(String) : f.spec.kind === 'text' ? texts : [];
        for (const v of values)
          check(`${route.label}?${f.name}=${v}`, await call(scopedToken, org.scoped, 'GET', `${route.def.path}?${f.name}=${encodeURIComponent(v)}`));
      }
    }
    // The list and the export by every filter of the list at once (the dashboard and the log have none).
    check('list of deleted', await call(scopedToken, org.scoped, 'GET', '/v1/customers/?deleted=true'));
    check('export', await call(scopedToken, org.scoped, 'GET', '/v1/customers/export.csv?deleted=false'));
    // An import preview: a row with a hidden customer's email is refused naming no one, and is no duplicate.
    const preview = await send(b.server.port, agent, {
      method: 'POST',
      path: '/api/v1/customers/import/preview/',
      body: `name,email\r\nLookalike,${hidden.customer.email}\r\n`,
      headers: { Authorization: `Bearer ${scopedToken}`, 'X-Organization-ID': String(org.scoped), 'Content-Type': 'text/csv' },
    });
    check('import preview', preview, hidden.customer.email);
    expect(JSON.parse(preview.text).rows[0].duplicate ?? null).toBeNull();
    // Bulk by ids names no hidden customer and changes nothing (the count says 0 of them are in the selection).
    const bulk = await call(scopedToken, org.scoped, 'POST', '/v1/customers/bulk/', { ids: [hidden.customer.id], action: 'add_tag', tag: 'x' });
    check('bulk', bulk);
    expect(bulk.status).toBe(409);
    console.log(`[scope isolation ${label}] ${calls} reads with another member's customers' values; shown ${problems.length}`);
    expect(problems, problems.slice(0, 10).join('\n')).toEqual([]);
    expect(changedTables(before, await digest(db))).toEqual([]);
  });
});
