// SPEC §4 reload: src/boot/preload.js sends the current-user call from the page itself, before the first
// bundle has run, and the session's load takes that answer (src/http/early.ts) instead of asking again:
// one `me` on the wire, sent about as soon as the page has arrived. Only when the session would send
// exactly that call; otherwise nothing is sent early, or what was sent is left and the call made as usual.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { callKey, withEarlyCall } from '../../src/http/early';
import { KEYS } from '../../src/lib/storage';
import { ACME, BEACON, FakeApi, type MemoryStorage } from '../helpers/fake-api';
import { accessToken } from '../helpers/fake-http';
import { makeSession } from '../helpers/session';

const ME = '/api/v1/auth/me/';
/** The inline script as index.html runs it, with no routes to preload (the early call is the subject here). */
const script = readFileSync(path.resolve(import.meta.dirname, '../../src/boot/preload.js'), 'utf8').replace('})(...PRELOAD);', "})('/assets/boot.js', [], [], []);");

describe('SPEC §4 the reload’s current-user call, sent by the page before the app has loaded', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = new FakeApi();
    vi.stubGlobal('fetch', vi.fn(api.fetch));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
    window.__earlyMe = undefined;
  });

  /** What a previous visit left in storage: a signed-in session in Acme Plumbing. */
  function stored(access = api.issue().access_token, refreshEndsInMs = 86_400_000) {
    localStorage.setItem(KEYS.accessToken, access);
    localStorage.setItem(KEYS.refreshToken, 'r-stored');
    api.validRefresh.add('r-stored');
    localStorage.setItem(KEYS.refreshExpiresAt, String(Date.now() + refreshEndsInMs));
    localStorage.setItem(KEYS.currentOrgId, String(ACME.id));
  }
  const runPageScript = () => new Function(script)();
  /** The app starting in the same page: its storage is the page's. */
  const session = () => makeSession({ api, kv: localStorage as unknown as MemoryStorage });

  test('SPEC §4 one me on the wire: the page sends it with the session’s token and organization, the load takes its answer', async () => {
    stored();
    runPageScript();
    expect(api.count(ME)).toBe(1);
    expect(api.calls[0]!.headers).toMatchObject({ authorization: `Bearer ${localStorage.getItem(KEYS.accessToken)}`, 'x-organization-id': String(ACME.id) });
    const t = session();
    await t.session.load();
    expect(api.count(ME)).toBe(1);
    expect(t.session.store.getState()).toMatchObject({ loading: false, isAuthenticated: true, currentOrg: { id: ACME.id } });
    expect(window.__earlyMe).toBeUndefined();
  });

  test('SPEC §4 another organization chosen since (the call would differ): the early answer is left, the load asks for its own', async () => {
    stored();
    runPageScript();
    localStorage.setItem(KEYS.currentOrgId, String(BEACON.id));
    const t = session();
    await t.session.load();
    expect(api.calls.filter((c) => c.path === ME).map((c) => c.headers['x-organization-id'])).toEqual([String(ACME.id), String(BEACON.id)]);
    expect(t.session.store.getState().currentOrg?.id).toBe(BEACON.id);
  });

  test('SPEC §4 D5 nothing is sent early when the load would refresh first: a token about to expire, a malformed one, none', async () => {
    stored(accessToken(30));
    runPageScript();
    expect(window.__earlyMe).toBeUndefined();
    localStorage.setItem(KEYS.accessToken, 'not-a-token');
    runPageScript();
    localStorage.removeItem(KEYS.accessToken);
    runPageScript();
    expect(api.calls).toEqual([]);
  });

  test('SPEC §4 D7 nothing is sent early once the refresh lifetime has passed, offline, or signed out', () => {
    stored(undefined, -1000);
    runPageScript();
    localStorage.clear();
    stored();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    runPageScript();
    vi.restoreAllMocks();
    localStorage.clear();
    runPageScript();
    expect(api.calls).toEqual([]);
    expect(window.__earlyMe).toBeUndefined();
  });

  test('the early answer serves only the first call, and only the very call it was: another first call sends its own and drops it', async () => {
    const real = vi.fn(async () => new Response('{}'));
    const url = '/api/v1/auth/me/';
    const headers = { Accept: 'application/json', Authorization: 'Bearer a.b.c' };
    const early = () => ({ key: callKey(url, headers), response: Promise.resolve(new Response('"early"')) });
    const win: Pick<Window, '__earlyMe'> = { __earlyMe: early() };
    const f = withEarlyCall(() => real as unknown as typeof fetch, win);
    const text = async (r: Promise<Response>) => (await r).text();
    expect(await text(f('/api/v1/customers/', { method: 'GET', headers }))).toBe('{}'); // another call first
    expect(await text(f(url, { method: 'GET', headers }))).toBe('{}'); // then the early one is gone
    win.__earlyMe = early();
    expect(await text(f(url, { method: 'GET', headers: { ...headers, Authorization: 'Bearer x.y.z' } }))).toBe('{}'); // another token
    win.__earlyMe = early();
    expect(await text(f(url, { method: 'GET', headers: { ...headers, 'X-Organization-ID': '2' } }))).toBe('{}'); // another organization
    win.__earlyMe = early();
    expect(await text(f(url, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: '{}' }))).toBe('{}'); // a body
    expect(real).toHaveBeenCalledTimes(5);
    win.__earlyMe = early();
    expect(await text(f(url, { method: 'GET', headers: { ...headers } }))).toBe('"early"');
    expect(real).toHaveBeenCalledTimes(5);
    expect(win.__earlyMe).toBeUndefined();
  });
});
