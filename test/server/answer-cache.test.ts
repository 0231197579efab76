// D34: the answer cache applied in one place (the router): the caller look-up and the routes that ask for
// it (`remember`) are kept until anything is written (on PostgreSQL by any instance: migration 14's
// notifications); every other read asks the database.
import { beforeAll, expect, test } from 'vitest';
import type { SqlParam } from '../../server/db';
import { CUSTOMERS, expectError, ME } from './api-common';
import { forEachBackend } from './backends';
import { DAY, forgeJwt, orgId, tokens, type TestServer } from './helpers';

/** Runs fn and counts the plain statements the server sends meanwhile. */
async function countQueries<T>(server: TestServer, fn: () => Promise<T>): Promise<{ result: T; queries: string[] }> {
  const db = server.db;
  const queries: string[] = [];
  const query = db.query.bind(db);
  db.query = (text: string, params?: readonly SqlParam[]) => (queries.push(text), query(text, params)) as never;
  try {
    return { result: await fn(), queries };
  } finally {
    db.query = query;
  }
}

forEachBackend('D34 the answer cache', (backend) => {
  let headers: Record<string, string>;
  let customer: number;
  beforeAll(async () => {
    const { server, api } = backend();
    const t = tokens(await api.login('owner@demo.test'));
    headers = { Authorization: `Bearer ${t.access_token}`, 'X-Organization-ID': String(await orgId(server.db, 'Acme Plumbing')) };
    const made = await api.post(CUSTOMERS, { name: 'Kept Or Not' }, headers);
    customer = made.body.id as number;
  });

  test('D34 a GET route without `remember` reads afresh each time; only the caller look-up is kept', async () => {
    const { server, api } = backend();
    const path = `${CUSTOMERS}${customer}/`;
    await server.db.query('update users set first_name = first_name where id = 0'); // nothing kept from before
    const first = await countQueries(server, () => api.get(path, headers));
    expect(first.result.status).toBe(200);
    expect(first.queries).toHaveLength(2); // the caller, the customer
    const again = await countQueries(server, () => api.get(path, headers));
    expect(again.result.body).toEqual(first.result.body);
    expect(again.queries).toHaveLength(1); // the customer, always read
    expect(again.queries.at(-1)).not.toMatch(/from sessions s/);
  });

  test("D34 D25 the list's deleted view is read afresh even though the list is kept", async () => {
    const { server, api } = backend();
    const deleted = `${CUSTOMERS}?deleted=true`;
    await server.db.query('update users set first_name = first_name where id = 0');
    await api.get(deleted, headers);
    const again = await countQueries(server, () => api.get(deleted, headers));
    expect(again.result.status).toBe(200);
    expect(again.queries.length).toBeGreaterThanOrEqual(1);
    expect(again.queries.some((q) => /deleted_at is not null/.test(q))).toBe(true);
  });

  test('D16 D34 a kept caller or me answer still ends with its session: past its expiry, 401 with nothing written between', async () => {
    const { server, api, clock } = backend();
    const [secret] = await server.db.query<{ value: string }>("select value from app_settings where key = 'jwt_secret'");
    const t = tokens(await api.login('solo@demo.test', undefined, { remember_me: false })); // a one-day session
    const sub = JSON.parse(Buffer.from(t.access_token.split('.')[1]!, 'base64url').toString()).sub as string;
    const now = Math.floor(clock.now() / 1000);
    // A token outliving its session (the server never signs one): only the session's expiry can refuse it.
    const token = forgeJwt({ alg: 'HS256', typ: 'JWT' }, { sub, sid: t.session_id, iat: now, exp: now + 3 * 86_400 }, secret!.value);
    const org = { Authorization: `Bearer ${token}`, 'X-Organization-ID': String(await orgId(server.db, 'Acme Plumbing')) };
    const bare = { Authorization: `Bearer ${token}` };
    expect((await api.get(ME, bare)).status).toBe(200);
    expect((await api.get(CUSTOMERS, org)).status).toBe(200);
    clock.advance(DAY + 60_000);
    const after = await countQueries(server, async () => [await api.get(ME, bare), await api.get(CUSTOMERS, org)]);
    for (const r of after.result) expectError(r, 401, 'session_ended');
    expect(after.queries).toHaveLength(0); // refused from the kept answers
  });
});
