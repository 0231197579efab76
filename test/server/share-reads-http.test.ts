// D34 through the API: while an import's apply transaction of Acme Plumbing is open (held by the test,
// sharing reads as commitImport's does), a member of Beacon Electric gets the customers list and the
// dashboard answered before it commits; on PGlite, Acme's own list waits for the commit and shows all of
// it. Order, never durations.
import { beforeAll, expect, test } from 'vitest';
import { APPLY_WRITES } from '../../server/features/customers/import-apply';
import { orgKey, withGateKey } from '../../server/gate-key';
import { CUSTOMERS } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { signIn, warmUp, type Actor } from './customers-common';
import { untilReleased } from './until-released';

const DASHBOARD = '/api/v1/dashboard/';
/** Statements the held transaction runs at most while it waits for the other member's answers. */
const MAX_STATEMENTS = 500;

forEachBackend('D34 reads shared inside an import through the API', (backend, label) => {
  let b: Backend;
  let importer: Actor;
  let other: Actor;
  beforeAll(async () => {
    b = backend();
    await warmUp(b);
    importer = await signIn(b, 'solo@demo.test', 'Acme Plumbing');
    other = await signIn(b, 'viewer@demo.test', 'Beacon Electric');
  });

  test("D34 another organization's list and dashboard are answered while an import's transaction is open; the importer's own list after its commit", async () => {
    const events: string[] = [];
    let answered = 0;
    const { done: released, release } = untilReleased();
    const { done: first, release: ready } = untilReleased();
    const db = b.server.db;
    const held = withGateKey(
      () =>
        db.transaction(
          async (tx) => {
            await tx.query("update customers set city = 'Held' where org_id = $1", [importer.org]);
            // D46: the list shows a primary location's city before the billing city.
            await tx.query("update customer_locations set city = 'Held' where org_id = $1", [importer.org]);
            ready();
            await released;
            // Its own statements go on (as an import's batches do) until the other member has both answers.
            for (let i = 0; answered < 2 && i < MAX_STATEMENTS; i++) await tx.query('select 1');
            events.push('import done');
          },
          { shareReads: { writes: APPLY_WRITES } },
        ),
      orgKey(importer.org),
    ).then(() => void events.push('committed'));
    await first;
    const track = (name: string, reply: Promise<{ status: number; body: unknown }>) =>
      reply.then((r) => {
        answered += 1;
        events.push(name);
        return r;
      });
    const list = track('other list', other.get(CUSTOMERS));
    const dashboard = track('other dashboard', other.get(DASHBOARD));
    const own = importer.get(`${CUSTOMERS}?page_size=100`).then((r) => (events.push('own list'), r));
    if (label === 'PGlite') await expect.poll(() => db.queueStats().queued).toBeGreaterThanOrEqual(3);
    release();
    await held;
    expect((await list).status).toBe(200);
    expect((await dashboard).status).toBe(200);
    expect(events.indexOf('other list')).toBeLessThan(events.indexOf('import done'));
    expect(events.indexOf('other dashboard')).toBeLessThan(events.indexOf('import done'));
    const mine = await own;
    expect(mine.status).toBe(200);
    if (label === 'PGlite') {
      expect(events.indexOf('own list')).toBeGreaterThan(events.indexOf('committed'));
      const cities = (mine.body as { results: { city: string | null }[] }).results.map((c) => c.city);
      expect(cities.length).toBeGreaterThan(0);
      expect(new Set(cities)).toEqual(new Set(['Held'])); // all of the write, never part of it
    }
  });
});
