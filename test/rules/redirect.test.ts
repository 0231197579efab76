// D6: the post-login target of one account is never handed to another. After a session ends
// (refresh failed), later writes of the target that cannot tell whose it is (a request cancelled for
// lack of a token, Logout, the signed-out guard after a reload) must not wipe out the owner.
import { describe, expect, test } from 'vitest';
import { createStorage, KEYS, readRedirect, storeRedirect } from '../../src/lib/storage';
import { json, MemoryStorage, ORGS, profile } from '../helpers/fake-api';
import { makeSession } from '../helpers/session';

/** Account '1' signed in at `path`; its refresh then fails, so the session expires (SPEC §8). */
async function expiredAt(path: string) {
  const t = makeSession({ path });
  t.seed(); // tokens of account '1'
  t.storage.set(KEYS.currentOrgId, '1');
  await t.session.load();
  t.api.validAccess.clear();
  t.api.validRefresh.clear();
  await t.session.client.get('/v1/things').catch(() => undefined);
  expect(t.session.store.getState().expired).toBe(true);
  return t;
}

/** Signs in as `sub` with one organization; returns where the app went. */
async function loginAs(t: Awaited<ReturnType<typeof expiredAt>>, sub: string) {
  const issue = t.api.issue.bind(t.api);
  t.api.issue = () => issue(sub);
  t.api.me = () => json(200, profile({ organizations: [ORGS[0]] }));
  return (await t.session.login({ email: `${sub}@demo.test`, password: 'pw' })).to;
}

describe('D6 a target stored while another account was signed in is ignored', () => {
  test('D6 after the session expired, a request cancelled for lack of a token keeps the target its account’s', async () => {
    const t = await expiredAt('/customers/5');
    t.setPath('/customers/6');
    await t.session.client.get('/v1/customers/').catch(() => undefined); // SPEC §5: cancelled, path stored
    expect(readRedirect(t.storage)?.path).toBe('/customers/6');
    expect(await loginAs(t, '2')).toBe('/dashboard');
  });

  test('D6 after the session expired, Logout keeps the target its account’s', async () => {
    const t = await expiredAt('/customers/5');
    await t.session.logout();
    expect(await loginAs(t, '2')).toBe('/dashboard');
  });

  test('D6 the account whose session it was still returns to the target', async () => {
    const t = await expiredAt('/customers/5');
    t.setPath('/customers/6');
    await t.session.client.get('/v1/customers/').catch(() => undefined);
    expect(await loginAs(t, '1')).toBe('/customers/6');
  });

  test('D6 a write that does not know the account (the signed-out guard after a reload) keeps the recorded owner', () => {
    const storage = createStorage(new MemoryStorage());
    storeRedirect(storage, '/customers/5', '1'); // recorded when the session ended
    storeRedirect(storage, '/customers/5', null); // the page reloaded signed out; the guard stores the path again
    expect(readRedirect(storage)).toEqual({ path: '/customers/5', sub: '1' });
    const fresh = createStorage(new MemoryStorage());
    storeRedirect(fresh, '/jobs', null); // nobody recorded: anyone may use it
    expect(readRedirect(fresh)).toEqual({ path: '/jobs', sub: null });
  });
});
