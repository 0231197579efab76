// D29: when the server answers 403 permission_denied the session reloads its profile, so menus and
// buttons catch up with permissions changed under the person; a burst of refusals costs one reload.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { isHttpError } from '../../src/http/errors';
import { KEYS } from '../../src/lib/storage';
import { PERMISSION_RELOAD_DELAY_MS, reloadOncePerBurst } from '../../src/session/permission-sync';
import { json, profile } from '../helpers/fake-api';
import { makeSession } from '../helpers/session';

afterEach(() => vi.useRealTimers());

const DENIED = json(403, { detail: 'Your role (member) does not grant customers:delete', code: 'permission_denied' });

/** A signed-in session whose /v1/things/ answers `answer`, and whose profile then has `after` permissions. */
async function signedIn(answer: () => Response) {
  const t = makeSession();
  t.seed();
  t.storage.set(KEYS.currentOrgId, '1');
  await t.session.load();
  t.api.routes.set('/v1/things/', answer);
  t.api.me = () => json(200, profile({ permissions: ['dashboard:view'] }));
  const me = () => t.api.count('/api/v1/auth/me/');
  const call = () => t.session.client.get('/v1/things/').catch((e: unknown) => e);
  return { t, me, call };
}

describe('D29 permission_denied reloads the profile', () => {
  test('D29 a burst of 403 permission_denied causes one profile reload, and the new permissions are the session’s', async () => {
    vi.useFakeTimers();
    const { t, me, call } = await signedIn(() => DENIED.clone());
    const before = me();
    const errors = await Promise.all([call(), call(), call()]);
    expect(errors.every((e) => isHttpError(e, 403))).toBe(true); // the refusal still reaches the caller
    expect(me()).toBe(before); // not yet: the burst may go on
    await vi.advanceTimersByTimeAsync(PERMISSION_RELOAD_DELAY_MS);
    expect(me() - before).toBe(1);
    expect(t.session.store.getState().permissions).toEqual(['dashboard:view']);
  });

  test('D29 exactly one reload for refusals that arrive together', async () => {
    vi.useFakeTimers();
    const { me, call } = await signedIn(() => DENIED.clone());
    const before = me();
    await Promise.all(Array.from({ length: 5 }, call));
    await vi.advanceTimersByTimeAsync(PERMISSION_RELOAD_DELAY_MS * 4);
    expect(me() - before).toBe(1);
  });

  test('D29 a later burst reloads again', async () => {
    vi.useFakeTimers();
    const { me, call } = await signedIn(() => DENIED.clone());
    const before = me();
    await call();
    await vi.advanceTimersByTimeAsync(PERMISSION_RELOAD_DELAY_MS * 4);
    await call();
    await vi.advanceTimersByTimeAsync(PERMISSION_RELOAD_DELAY_MS * 4);
    expect(me() - before).toBe(2);
  });

  test('other refusals (403 without permission_denied, 404) reload nothing', async () => {
    vi.useFakeTimers();
    let status = 403;
    const { me, call } = await signedIn(() => json(status, { detail: 'no', code: status === 403 ? 'not_a_member' : 'not_found' }));
    const before = me();
    await call();
    status = 404;
    await call();
    await vi.advanceTimersByTimeAsync(PERMISSION_RELOAD_DELAY_MS * 4);
    expect(me()).toBe(before);
  });

  test('reloadOncePerBurst: calls while the reload waits or runs join it; a failed reload does not block the next', async () => {
    vi.useFakeTimers();
    let finish: () => void = () => undefined;
    const reload = vi.fn(() => new Promise<void>((resolve, reject) => (finish = reload.mock.calls.length === 1 ? () => reject(new Error('x')) : resolve)));
    const trigger = reloadOncePerBurst(reload, 100);
    trigger();
    trigger();
    await vi.advanceTimersByTimeAsync(100);
    trigger(); // while running
    expect(reload).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    trigger();
    await vi.advanceTimersByTimeAsync(100);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
