// Issue 21: what a request costs the database, counted rather than timed. Each statement the server sends is
// one round trip to the database (a transaction's begin and commit are more), so these counts fail when a
// round trip is added back: `me` is one statement (the session's liveness is part of it, D9), the customers
// list is the caller look-up and one statement with its page and total (D26). And a statement's text names
// no values (they are parameters), so each is prepared once per connection and then only executed: the
// list's texts depend on the shape of the request (search or not, sort, a phone-like search), never on the
// page, its size or the words searched for.
import { beforeAll, describe, expect, test } from 'vitest';
import { CUSTOMERS, ME } from './api-common';
import { forEachBackend, type Api } from './backends';
import { orgId, tokens, type TestServer } from './helpers';
import { statementsDuring } from './statements';

forEachBackend('round trips per request', (backend) => {
  let server: TestServer;
  let api: Api;
  let headers: Record<string, string>;
  let bare: Record<string, string>;
  beforeAll(async () => {
    ({ server, api } = backend());
    const t = tokens(await api.login('owner@demo.test'));
    bare = { Authorization: `Bearer ${t.access_token}` };
    headers = { ...bare, 'X-Organization-ID': String(await orgId(server.db, 'Acme Plumbing')) };
    // D52: a session's first call of a minute also writes its last activity (one statement, not awaited); counted apart below.
    expect((await api.get(ME, bare)).status).toBe(200);
    for (let i = 0; i < 100 && !(await server.db.query('select 1 from sessions where id = $1 and last_active_at is not null', [t.session_id])).length; i++)
      await new Promise((r) => setTimeout(r, 20));
  });

  /** The statements one GET sends when nothing is kept; the answer must be 200. */
  async function statementsOfGet(path: string, h = headers): Promise<string[]> {
    const { result, texts } = await statementsDuring(server, () => api.get(path, h));
    expect(result.status, path).toBe(200);
    return texts;
  }

  describe('D9 GET me', () => {
    test('D9 GET me is one statement, with or without X-Organization-ID, every time it is asked', async () => {
      for (const h of [bare, headers, bare]) expect(await statementsOfGet(ME, h)).toHaveLength(1);
    });

    test('D16 a revoked session costs GET me the same one statement, and is refused', async () => {
      const t = tokens(await api.login('solo@demo.test'));
      expect((await api.logout({ refresh_token: t.refresh_token })).status).toBe(204);
      const { result, texts } = await statementsDuring(server, () => api.get(ME, { Authorization: `Bearer ${t.access_token}` }));
      expect(result.status).toBe(401);
      expect(texts).toHaveLength(1);
    });
  });

  describe('D26 the customers list', () => {
    const shapes = [
      '', // browsing: the page walks the sort's index, the total comes from the counts
      '?page=2&page_size=10',
      '?status=active&sort=-updated_at',
      '?q=example', // a search: its matches counted up to the bound in the same statement
      '?q=555-01&page_size=50',
      '?q=ac&sort=name', // a short search: names beginning with it
    ];

    test('D26 every list request is the caller look-up and one statement with its page and total', async () => {
      for (const query of shapes) {
        const texts = await statementsOfGet(`${CUSTOMERS}${query}`);
        expect(texts, query).toHaveLength(2);
        expect(texts[0], query).toMatch(/from sessions s/);
      }
    });

    test("D26 the list's statement texts name no values: other pages, sizes and words reuse the prepared statement", async () => {
      const textOf = async (query: string) => (await statementsOfGet(`${CUSTOMERS}${query}`))[1];
      expect(await textOf('?page=3&page_size=5')).toBe(await textOf('?page=1&page_size=25'));
      expect(await textOf('?status=lead')).toBe(await textOf('?status=active'));
      expect(await textOf('?q=plumb&page=2')).toBe(await textOf('?q=example'));
      expect(await textOf('?q=5550107')).toBe(await textOf('?q=555-0199'));
      expect(await textOf('?q=zz')).toBe(await textOf('?q=ab'));
    });
  });
});
