// D28: the invitation page's public calls go with the session's token when there is one and without
// when there is none (optionalAuth), instead of being cancelled as SPEC §5 cancels other calls.
import { describe, expect, test } from 'vitest';
import { KEYS } from '../../src/lib/storage';
import { makeSession } from '../helpers/session';

describe('D28 optionalAuth', () => {
  test('without a token: sent without Authorization, nothing flagged, no redirect stored', async () => {
    const t = makeSession();
    const answer = await t.session.client.get<{ ok: boolean }>('/v1/invitations/abc/', { optionalAuth: true }).catch((e: unknown) => e);
    const call = t.api.calls.find((c) => c.path === '/api/v1/invitations/abc/')!;
    expect(call).toBeDefined();
    expect(call.headers.authorization).toBeUndefined();
    expect(answer).toBeDefined();
    expect(t.storage.get(KEYS.hydrationFailed)).toBeNull();
    expect(t.storage.get(KEYS.postLoginRedirect)).toBeNull();
    expect(t.api.count('/api/v1/auth/refresh/')).toBe(0); // a 401 to a call without a token refreshes nothing
  });

  test('SPEC §5 still holds for other calls: without a token they are cancelled before sending', async () => {
    const t = makeSession();
    await expect(t.session.client.get('/v1/invitations/abc/')).rejects.toMatchObject({ name: 'AbortError', reason: 'no-token' });
    expect(t.api.calls).toHaveLength(0);
  });

  test('with a token: sent with it, and a 401 refreshes and replays as usual', async () => {
    const t = makeSession();
    t.seed();
    t.storage.set(KEYS.accessToken, t.storage.get(KEYS.accessToken)!.replace(/\.sig$/, '.old')); // a token the server no longer takes
    await t.session.client.post('/v1/things/', {}, { optionalAuth: true });
    const sent = t.api.calls.filter((c) => c.path === '/api/v1/things/');
    expect(sent).toHaveLength(2);
    expect(sent.every((c) => c.headers.authorization?.startsWith('Bearer '))).toBe(true);
    expect(t.api.count('/api/v1/auth/refresh/')).toBe(1);
  });
});
