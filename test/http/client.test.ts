import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createClient, type ClientDeps } from '../../src/http/client';
import { connectivity, setOnline, startConnectivity } from '../../src/http/connectivity';
import { AbortError, busyMessage, HttpError, isAbortError, isHttpError, isNetworkError, isTransient } from '../../src/http/errors';
import { FakeApi, json } from '../helpers/fake-api';
import { PASSWORD } from '../helpers/fake-mfa';

function setup(over: Partial<ClientDeps> = {}) {
  const api = new FakeApi();
  const t = api.issue();
  const tokens = { access: t.access_token as string | null, refresh: t.refresh_token };
  const events = { refreshFailed: 0, missing: [] as string[] };
  const refresh = vi.fn(async () => {
    const res = await api.fetch('/api/v1/auth/refresh/', { method: 'POST', body: JSON.stringify({ refresh_token: tokens.refresh }) });
    if (!res.ok) throw new HttpError(res.status, null, '/v1/auth/refresh/');
    const body = (await res.json()) as { access_token: string; refresh_token: string };
    tokens.access = body.access_token;
    tokens.refresh = body.refresh_token;
  });
  const log = { warn: vi.fn(), error: vi.fn() };
  const client = createClient({
    base: () => '/api',
    accessToken: () => tokens.access,
    orgId: () => 3,
    refresh,
    onRefreshFailed: () => {
      events.refreshFailed++;
      tokens.access = null;
    },
    onMissingToken: (p) => events.missing.push(p),
    fetch: api.fetch as unknown as typeof fetch,
    log,
    ...over,
  });
  return { api, client, tokens, events, refresh, log };
}

beforeEach(() => setOnline(true));
afterEach(() => vi.useRealTimers());

describe('SPEC §7 requests', () => {
  test('D1 calls go to the API base with no credentials or cookies', async () => {
    const { api, client } = setup();
    await client.get('/v1/things');
    expect(api.calls[0]?.path).toBe('/api/v1/things');
    expect(api.calls[0]?.credentials).toBe('omit');
  });

  test('SPEC §7 every request carries the bearer token and the X-Organization-ID of this tab (D21)', async () => {
    const { api, client, tokens } = setup();
    await client.get('/v1/things');
    expect(api.calls[0]?.headers.authorization).toBe(`Bearer ${tokens.access}`);
    expect(api.calls[0]?.headers['x-organization-id']).toBe('3');
  });

  test('no X-Organization-ID header when no organization is stored', async () => {
    const { api, client } = setup({ orgId: () => null });
    await client.get('/v1/things');
    expect(api.calls[0]?.headers).not.toHaveProperty('x-organization-id');
  });

  test('D54 a call about the person (noOrg) goes without X-Organization-ID, with the bearer token', async () => {
    const { api, client, tokens } = setup();
    await client.post('/v1/account/mfa/setup/', { password: PASSWORD }, { noOrg: true });
    expect(api.calls[0]?.headers).not.toHaveProperty('x-organization-id');
    expect(api.calls[0]?.headers.authorization).toBe(`Bearer ${tokens.access}`);
  });

  test('SPEC §5 the bearer token is attached only if it has three dot-separated parts', async () => {
    const { api, client, tokens } = setup();
    tokens.access = 'two.parts';
    await client.post('/v1/auth/login/', { email: 'a', password: 'b' });
    expect(api.calls[0]?.headers).not.toHaveProperty('authorization');
  });

  test('SPEC §5 a non-auth request without an access token is cancelled before it is sent', async () => {
    const { api, client, tokens, events } = setup();
    tokens.access = null;
    const err = await client.get('/v1/things').catch((e: unknown) => e);
    expect(isAbortError(err) && (err as AbortError).reason).toBe('no-token');
    expect(api.calls).toHaveLength(0);
    expect(events.missing).toEqual(['/v1/things']);
    await client.post('/v1/auth/login/', {}); // auth paths are still sent
    expect(api.calls).toHaveLength(1);
  });

  test('requests are cancellable with an AbortSignal', async () => {
    const { client } = setup();
    const ctrl = new AbortController();
    ctrl.abort();
    await expect(client.get('/v1/things', { signal: ctrl.signal })).rejects.toBeInstanceOf(AbortError);
    const ctrl2 = new AbortController();
    const p = client.post('/v1/auth/login/', { email: 'a' }, { signal: ctrl2.signal });
    ctrl2.abort();
    await expect(p).rejects.toBeInstanceOf(AbortError);
    expect(connectivity.getState()).toBe(true); // a cancellation is not a network failure
  });

  test('JSON bodies are sent with a JSON content type and answers are parsed', async () => {
    const { api, client } = setup();
    api.routes.set('/v1/echo', (c) => json(201, { got: c.body }));
    await expect(client.post('/v1/echo', { a: 1 })).resolves.toEqual({ got: { a: 1 } });
    expect(api.calls[0]?.headers['content-type']).toBe('application/json');
  });
});

describe('SPEC §7 401 → one refresh → replay once', () => {
  test('50 concurrent requests hit 401 → exactly one refresh call; all 50 are retried once with the new token and succeed', async () => {
    const { api, client, tokens, refresh } = setup();
    api.validAccess.clear(); // the current access token has expired on the server
    const old = tokens.access;
    const results = await Promise.all(Array.from({ length: 50 }, () => client.get<{ ok: boolean; token: string }>('/v1/things')));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(api.count('/api/v1/auth/refresh/')).toBe(1);
    expect(results).toHaveLength(50);
    for (const r of results) expect(r).toEqual({ ok: true, token: tokens.access });
    expect(tokens.access).not.toBe(old);
    expect(api.count('/api/v1/things')).toBe(100); // each sent once, replayed once
  });

  test('a 401 that arrives after another request already refreshed replays without refreshing again', async () => {
    const { api, client, refresh } = setup();
    api.validAccess.clear();
    api.holdRequests = true;
    const slow = client.get('/v1/things'); // sent with the old token, answered later
    await vi.waitFor(() => expect(api.count('/api/v1/things')).toBe(1));
    api.holdRequests = false;
    await client.get('/v1/things'); // 401 → refresh → replay
    api.release();
    await expect(slow).resolves.toMatchObject({ ok: true });
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  test('SPEC §8 the refresh fails → all 50 reject, the failure is handled once', async () => {
    const { api, client, events } = setup();
    api.validAccess.clear();
    api.validRefresh.clear();
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => client.get('/v1/things')));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(api.count('/api/v1/auth/refresh/')).toBe(1);
    expect(events.refreshFailed).toBe(1);
  });

  test('D2 a refresh answered 503 (server busy) rejects the requests but keeps the session: it is not a failed refresh', async () => {
    const { api, client, events, refresh } = setup();
    api.validAccess.clear();
    refresh.mockRejectedValueOnce(new HttpError(503, { code: 'server_busy' }, '/v1/auth/refresh/'));
    const results = await Promise.allSettled([client.get('/v1/things'), client.get('/v1/things')]);
    expect(results.every((r) => r.status === 'rejected' && isHttpError(r.reason, 503))).toBe(true);
    expect(events.refreshFailed).toBe(0);
    expect(await client.get('/v1/things')).toBeDefined(); // the next 401 refreshes for real and succeeds
    expect(events.refreshFailed).toBe(0);
  });

  test('D35 a refresh answered 429 (slow down) is treated like a 503: the requests reject, the session is kept', async () => {
    const { api, client, events, refresh } = setup();
    api.validAccess.clear();
    refresh.mockRejectedValueOnce(new HttpError(429, { code: 'too_many_attempts' }, '/v1/auth/refresh/', 4));
    const results = await Promise.allSettled([client.get('/v1/things'), client.get('/v1/things')]);
    expect(results.every((r) => r.status === 'rejected' && isHttpError(r.reason, 429))).toBe(true);
    expect(events.refreshFailed).toBe(0);
    expect(await client.get('/v1/things')).toBeDefined();
    expect(events.refreshFailed).toBe(0);
  });

  test('D35 a 429 carries its Retry-After, and the person is told to wait', async () => {
    const { api, client } = setup();
    api.routes.set(
      '/v1/slow',
      () =>
        new Response(JSON.stringify({ detail: 'Too many', code: 'too_many_requests' }), {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '7' },
        }),
    );
    const err = await client.get('/v1/slow').catch((e: unknown) => e);
    expect(isHttpError(err, 429) && err.retryAfterS).toBe(7);
    expect(isTransient(err)).toBe(true);
    expect(busyMessage(err as HttpError)).toBe('The server is busy. Please wait 7 seconds and try again.');
    expect(busyMessage(new HttpError(503, null, '/x', 1))).toBe('The server is busy. Please wait a moment and try again.');
    expect(isTransient(new HttpError(409, null, '/x'))).toBe(false);
  });

  test('a replayed request that gets 401 again is not refreshed again (no loop)', async () => {
    const { api, client, refresh } = setup();
    api.validAccess.clear();
    api.routes.set('/v1/always401', () => json(401, { detail: 'no' }));
    const origIssue = api.issue.bind(api);
    api.issue = () => {
      const t = origIssue();
      api.validAccess.clear(); // the new token is refused too
      return t;
    };
    const err = await client.get('/v1/things').catch((e: unknown) => e);
    expect(isHttpError(err, 401)).toBe(true);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(api.count('/api/v1/things')).toBe(2);
  });

  test('SPEC §7 no refresh on a 401 from the login, refresh or current-user calls', async () => {
    const { api, client, refresh } = setup();
    api.loginStatus = 401;
    api.validAccess.clear();
    await expect(client.post('/v1/auth/login/', {})).rejects.toMatchObject({ status: 401 });
    await expect(client.get('/v1/auth/me/')).rejects.toMatchObject({ status: 401 });
    await expect(client.post('/v1/auth/refresh/', { refresh_token: 'nope' })).rejects.toMatchObject({ status: 401 });
    expect(refresh).not.toHaveBeenCalled();
  });
});

describe('SPEC §8 error handling', () => {
  test('SPEC §8 no response → the offline banner signal; a later success hides it', async () => {
    const { api, client } = setup();
    api.offline = true;
    const err = await client.get('/v1/things').catch((e: unknown) => e);
    expect(isNetworkError(err)).toBe(true);
    expect(connectivity.getState()).toBe(false);
    api.offline = false;
    await client.get('/v1/things');
    expect(connectivity.getState()).toBe(true);
  });

  test('SPEC §4 a response that was on its way when the browser went offline leaves the banner up', async () => {
    const { client } = setup();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    setOnline(false); // the browser's offline event
    await client.get('/v1/things');
    expect(connectivity.getState()).toBe(false);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    await client.get('/v1/things');
    expect(connectivity.getState()).toBe(true);
  });

  test('SPEC §8 status 500 or above is logged and hides the banner', async () => {
    const { api, client, log } = setup();
    setOnline(false);
    api.routes.set('/v1/boom', () => json(503, { detail: 'down' }));
    const err = await client.get('/v1/boom').catch((e: unknown) => e);
    expect(isHttpError(err, 503) && (err as HttpError).detail).toBe('down');
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(connectivity.getState()).toBe(true);
  });

  test('SPEC §8 403 is logged and passed on', async () => {
    const { api, client, log } = setup();
    api.routes.set('/v1/secret', () => json(403, { detail: 'forbidden', code: 'forbidden' }));
    await expect(client.get('/v1/secret')).rejects.toMatchObject({ status: 403, data: { code: 'forbidden' } });
    expect(log.warn).toHaveBeenCalledTimes(1);
  });

  test('logs never contain tokens', async () => {
    const { api, client, log, tokens } = setup();
    api.routes.set('/v1/boom', () => json(500, {}));
    api.routes.set('/v1/secret', () => json(403, {}));
    await client.get('/v1/boom').catch(() => undefined);
    await client.get('/v1/secret').catch(() => undefined);
    const logged = JSON.stringify([log.warn.mock.calls, log.error.mock.calls]);
    expect(logged).not.toContain(tokens.access ?? 'x');
    expect(logged).not.toContain('Bearer');
  });

  test('SPEC §4 going offline adds the offline class to the body; coming online removes it', () => {
    const stop = startConnectivity(window);
    window.dispatchEvent(new Event('offline'));
    expect(connectivity.getState()).toBe(false);
    expect(document.body.classList.contains('offline')).toBe(true);
    window.dispatchEvent(new Event('online'));
    expect(document.body.classList.contains('offline')).toBe(false);
    stop();
  });
});
