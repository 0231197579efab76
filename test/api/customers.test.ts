// STYLE: api/customers.ts holds every customers call and its cache key; writes name what they make stale.
import { describe, expect, test, vi } from 'vitest';
import { createClient } from '../../src/http/client';
import { customerKeys, customersApi, exportPath, listPath, queryString } from '../../src/api/customers';
import { hashKey, startsWith, type QueryKey } from '../../src/query/cache';
import { FakeApi, json, type Call } from '../helpers/fake-api';

function setup(orgId = 1) {
  const api = new FakeApi();
  const token = api.issue().access_token;
  const client = createClient({
    base: () => '/api',
    accessToken: () => token,
    orgId: () => orgId,
    refresh: vi.fn(async () => undefined),
    onRefreshFailed: vi.fn(),
    onMissingToken: vi.fn(),
    fetch: api.fetch as unknown as typeof fetch,
  });
  const seen: Call[] = [];
  /** Answers calls to `path` (without the API base). */
  const answer = (path: string, status: number, body: unknown) =>
    api.routes.set(path, (c) => {
      seen.push(c);
      return body instanceof Response ? body : json(status, body);
    });
  return { api, seen, answer, calls: customersApi({ client, orgId }) };
}

const signal = new AbortController().signal;
const PAGE = { count: 1, results: [{ id: 7, name: 'Ann Patel' }] };
const CUSTOMER = { id: 7, name: 'Ann Patel', version: 3 };

describe('STYLE api/customers.ts: the calls', () => {
  test('D26 list: GET /v1/customers/ with only the parameters that are set', async () => {
    const t = setup();
    t.answer('/v1/customers/', 200, PAGE);
    const def = t.calls.list({ q: 'ann', status: 'lead', tag: 'vip', sort: '-updated_at', page: 2, page_size: 50 });
    expect(await def.fetch(signal)).toEqual(PAGE);
    expect(t.seen[0]).toMatchObject({ method: 'GET', search: '?q=ann&status=lead&tag=vip&sort=-updated_at&page=2&page_size=50' });
    expect(listPath({ q: '', page: 1, deleted: false })).toBe('/v1/customers/?page=1');
    expect(listPath({ deleted: true, page: 1 })).toBe('/v1/customers/?deleted=true&page=1');
  });

  test('list: an answer of another shape is an error, not a crash later', async () => {
    const t = setup();
    t.answer('/v1/customers/', 200, { results: 'nope' });
    await expect(t.calls.list({}).fetch(signal)).rejects.toThrow(TypeError);
  });

  test.each([
    ['get', (c: ReturnType<typeof setup>['calls']) => c.get(7).fetch(signal), '/api/v1/customers/7/', 'GET', ''],
    [
      'duplicates',
      (c: ReturnType<typeof setup>['calls']) => c.duplicates({ email: 'a@b.co', phone: '555 0101', exclude: 7 }).fetch(signal),
      '/api/v1/customers/duplicates/',
      'GET',
      '?email=a%40b.co&phone=555+0101&exclude=7',
    ],
    ['notes', (c: ReturnType<typeof setup>['calls']) => c.notes(7, { page: 2 }).fetch(signal), '/api/v1/customers/7/notes/', 'GET', '?page=2'],
    [
      'timeline',
      (c: ReturnType<typeof setup>['calls']) => c.timeline(7, { page: 1, page_size: 25 }).fetch(signal),
      '/api/v1/customers/7/timeline/',
      'GET',
      '?page=1&page_size=25',
    ],
    ['dashboard', (c: ReturnType<typeof setup>['calls']) => c.dashboard().fetch(signal), '/api/v1/dashboard/', 'GET', ''],
  ] as const)('%s reads %s', async (_name, run, path, method, search) => {
    const t = setup();
    t.answer(path.replace(/^\/api/, ''), 200, PAGE);
    await run(t.calls);
    expect(t.seen[0]).toMatchObject({ method, search });
  });

  test('D22 create: POST the fields; D31 update: PATCH the changes with the version', async () => {
    const t = setup();
    t.answer('/v1/customers/', 201, CUSTOMER);
    t.answer('/v1/customers/7/', 200, CUSTOMER);
    await t.calls.create.run({ name: 'Ann Patel', email: 'ann@example.com' });
    await t.calls.update(7).run({ changes: { phone: '555 0101' }, version: 3 });
    expect(t.seen.map((c) => [c.method, c.body])).toEqual([
      ['POST', { name: 'Ann Patel', email: 'ann@example.com' }],
      ['PATCH', { phone: '555 0101', version: 3 }],
    ]);
  });

  test('D25 delete and restore', async () => {
    const t = setup();
    t.answer('/v1/customers/7/', 204, new Response(null, { status: 204 }));
    t.answer('/v1/customers/7/restore/', 200, CUSTOMER);
    await t.calls.remove.run(7);
    await t.calls.restore.run(7);
    expect(t.seen.map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /api/v1/customers/7/', 'POST /api/v1/customers/7/restore/']);
  });

  test('D24 notes: add, edit and delete', async () => {
    const t = setup();
    t.answer('/v1/customers/7/notes/', 201, { id: 3 });
    t.answer('/v1/customers/7/notes/3/', 200, { id: 3 });
    await t.calls.addNote(7).run('Gate code 1234');
    await t.calls.editNote(7).run({ noteId: 3, body: 'Gate code 4321' });
    await t.calls.deleteNote(7).run(3);
    expect(t.seen.map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', '/api/v1/customers/7/notes/', { body: 'Gate code 1234' }],
      ['PATCH', '/api/v1/customers/7/notes/3/', { body: 'Gate code 4321' }],
      ['DELETE', '/api/v1/customers/7/notes/3/', null],
    ]);
  });

  test('D27 D43 D44 import: the file’s own bytes as text/csv, to preview and then to commit with on_duplicate and previewed_at', async () => {
    const t = setup();
    const csv = 'name,email\nAnn,ann@example.com\n';
    t.answer('/v1/customers/import/preview/', 200, { rows: [] });
    t.answer('/v1/customers/import/', 200, { created: 1, updated: 0, skipped: 0 });
    const file = new Blob([csv], { type: 'application/vnd.ms-excel' });
    await t.calls.previewImport(file);
    await t.calls.commitImport.run({ file, onDuplicate: 'update', previewedAt: '2026-03-02T10:00:00.000Z' });
    expect(t.seen.map((c) => [c.method, c.search, c.body, c.blobType])).toEqual([
      ['POST', '', csv, 'text/csv'],
      ['POST', '?on_duplicate=update&previewed_at=2026-03-02T10%3A00%3A00.000Z', csv, 'text/csv'],
    ]);
  });

  test('D27 export: the filtered list as a CSV Blob, fetched with the bearer token, starting with the BOM the server wrote', async () => {
    const t = setup();
    const body = '\uFEFFname,email\r\nAnn,ann@example.com\r\n';
    t.answer('/v1/customers/export.csv', 200, new Response(body, { headers: { 'Content-Type': 'text/csv; charset=utf-8' } }));
    const blob = await t.calls.exportCsv({ q: 'ann', status: 'active', sort: 'name' });
    expect(t.seen[0]).toMatchObject({ method: 'GET', search: '?q=ann&status=active&sort=name' });
    expect(t.seen[0]!.headers.authorization).toMatch(/^Bearer /);
    expect(blob.type).toBe('text/csv');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(body); // exactly one BOM, then the rows
    expect(exportPath({ q: '', tag: 'vip' })).toBe('/v1/customers/export.csv?tag=vip');
  });

  test('queryString leaves out what is not set', () => {
    expect(queryString({ a: undefined, b: '', c: false, d: 0, e: 'x y' })).toBe('?d=0&e=x+y');
    expect(queryString({})).toBe('');
  });
});

describe('STYLE api/customers.ts: keys and what writes invalidate', () => {
  const under = (keys: readonly QueryKey[], key: QueryKey) => keys.some((p) => startsWith(key, p));

  test('STYLE keys are arrays under [customers, orgId]; two organizations never share one (D21)', () => {
    expect(customerKeys.list(1, { q: 'a' })).toEqual(['customers', 1, 'list', { q: 'a' }]);
    for (const key of [
      customerKeys.list(1, {}),
      customerKeys.detail(1, 7),
      customerKeys.notes(1, 7, {}),
      customerKeys.timeline(1, 7, {}),
      customerKeys.duplicates(1, {}),
    ]) {
      expect(startsWith(key, customerKeys.all(1))).toBe(true);
      expect(startsWith(key, customerKeys.all(2))).toBe(false);
    }
    expect(hashKey(customerKeys.list(1, {}))).not.toBe(hashKey(customerKeys.list(2, {})));
  });

  test('STYLE the read defs carry their keys: a screen never pairs a key and a fetcher by hand', () => {
    const { calls } = setup(5);
    expect(calls.list({ page: 2 }).key).toEqual(customerKeys.list(5, { page: 2 }));
    expect(calls.get(7).key).toEqual(customerKeys.detail(5, 7));
    expect(calls.dashboard().key).toEqual(customerKeys.dashboard(5));
  });

  test('STYLE a customer write makes that organization’s lists, records, timelines and dashboard stale; not another’s', () => {
    const { calls } = setup(1);
    for (const def of [calls.create, calls.update(7), calls.remove, calls.restore, calls.commitImport]) {
      expect(under(def.invalidates, customerKeys.list(1, { page: 3 }))).toBe(true);
      expect(under(def.invalidates, customerKeys.list(1, { deleted: true }))).toBe(true);
      expect(under(def.invalidates, customerKeys.timeline(1, 7, {}))).toBe(true);
      expect(under(def.invalidates, customerKeys.dashboard(1))).toBe(true);
      expect(under(def.invalidates, customerKeys.list(2, {}))).toBe(false);
    }
  });

  test('D24 a note write makes that customer’s notes and timeline stale, not the lists', () => {
    const { calls } = setup(1);
    for (const def of [calls.addNote(7), calls.editNote(7), calls.deleteNote(7)]) {
      expect(under(def.invalidates, customerKeys.notes(1, 7, {}))).toBe(true);
      expect(under(def.invalidates, customerKeys.timeline(1, 7, { page: 2 }))).toBe(true);
      expect(under(def.invalidates, customerKeys.timeline(1, 8, {}))).toBe(false);
      expect(under(def.invalidates, customerKeys.list(1, {}))).toBe(false);
    }
  });
});
