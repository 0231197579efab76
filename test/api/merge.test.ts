// D49 STYLE api/merge.ts: the merge calls (preview, merge, undo), their paths and bodies, and what a
// merge or an undo makes stale: both customers, their timelines, the list and its counts, the dashboard.
import { describe, expect, test, vi } from 'vitest';
import type { MergeRequest } from '../../contract/merge';
import { customerKeys } from '../../src/api/customers';
import { mergeApi, mergeKeys } from '../../src/api/merge';
import { createClient } from '../../src/http/client';
import { type QueryKey, startsWith } from '../../src/query/cache';
import { type Call, FakeApi, json } from '../helpers/fake-api';

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
  const answer = (path: string, body: unknown) =>
    api.routes.set(path, (c) => {
      seen.push(c);
      return json(200, body);
    });
  return { seen, answer, calls: mergeApi({ client, orgId }) };
}

const signal = new AbortController().signal;
const under = (keys: readonly QueryKey[], key: QueryKey) => keys.some((p) => startsWith(key, p));

describe('D49 api/merge.ts', () => {
  test('D49 preview: GET /v1/customers/merge/preview/ with both ids, keyed under the organization’s customers', async () => {
    const t = setup();
    t.answer('/v1/customers/merge/preview/', { survivor: { id: 21 }, merged: { id: 22 }, moves: {} });
    const def = t.calls.preview(21, 22);
    await def.fetch(signal);
    expect(t.seen[0]).toMatchObject({ method: 'GET', search: '?survivor_id=21&merged_id=22' });
    expect(def.key).toEqual(mergeKeys.preview(1, 21, 22, false));
    expect(startsWith(def.key, customerKeys.all(1))).toBe(true);
    expect(def.key).not.toEqual(t.calls.preview(22, 21).key); // the order matters: what moves is the merged one's
  });

  test('D66 preview with propose: the server picks the survivor (propose=true), under a key of its own', async () => {
    const t = setup();
    t.answer('/v1/customers/merge/preview/', { survivor: { id: 22 }, merged: { id: 21 }, moves: {} });
    const def = t.calls.preview(21, 22, true);
    await def.fetch(signal);
    expect(t.seen[0]).toMatchObject({ method: 'GET', search: '?survivor_id=21&merged_id=22&propose=true' });
    expect(def.key).toEqual(mergeKeys.preview(1, 21, 22, true));
    expect(def.key).not.toEqual(t.calls.preview(21, 22).key);
  });

  test('D49 merge: POST /v1/customers/merge/ with the request as given; undo: POST /v1/customers/merges/{id}/undo/', async () => {
    const t = setup();
    t.answer('/v1/customers/merge/', { id: 21, merge_id: 900 });
    t.answer('/v1/customers/merges/900/undo/', { survivor: { id: 21 }, merged: { id: 22 } });
    const body: MergeRequest = { survivor_id: 21, merged_id: 22, fields: { email: 'merged' } };
    expect(await t.calls.merge.run(body)).toMatchObject({ merge_id: 900 });
    await t.calls.undo.run(900);
    expect(t.seen.map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', '/api/v1/customers/merge/', body],
      ['POST', '/api/v1/customers/merges/900/undo/', null],
    ]);
  });

  test('D49 D21 a merge and its undo make both customers, their timelines, the list and the dashboard stale, in this organization only', () => {
    const { calls } = setup();
    for (const def of [calls.merge, calls.undo]) {
      for (const id of [21, 22]) {
        expect(under(def.invalidates, customerKeys.detail(1, id))).toBe(true);
        expect(under(def.invalidates, customerKeys.timeline(1, id, {}))).toBe(true);
      }
      expect(under(def.invalidates, customerKeys.list(1, { q: 'lee' }))).toBe(true);
      expect(under(def.invalidates, customerKeys.duplicates(1, { email: 'ann@example.com' }))).toBe(true);
      expect(under(def.invalidates, customerKeys.dashboard(1))).toBe(true);
      expect(under(def.invalidates, customerKeys.list(2, {}))).toBe(false);
    }
  });
});
