// D2: one schema and one set of queries on both databases, and the harness's promise that each file's
// server starts on a database nobody else uses.
import { beforeAll, expect, test } from 'vitest';
import { forEachBackend } from './backends';
import type { TestServer } from './helpers';

forEachBackend('API backend', (backend, label) => {
  let server: TestServer;
  beforeAll(() => {
    ({ server } = backend());
  });

  test(`D2 the same schema and queries run on ${label}`, async () => {
    expect(server.db.kind).toBe(label === 'PGlite' ? 'pglite' : 'postgres');
    const [row] = await server.db.query<{ v: unknown }>('select max(version) as v from schema_migrations');
    expect(Number(row?.v)).toBeGreaterThanOrEqual(2);
  });

  test(`each file's server on ${label} starts on a fresh database of its own`, async () => {
    expect(server.seeded).toBe(true); // this start found no demo data, so nothing had used the database
    if (label === 'PostgreSQL') {
      const [row] = await server.db.query<{ name: string }>('select current_database() as name');
      expect(row?.name).toMatch(/^crm_test_/);
    }
  });
});
