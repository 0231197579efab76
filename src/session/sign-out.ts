// SPEC §4 Logout.
import type { Client } from '../http/client';
import { subject } from '../lib/jwt';
import { KEYS, storeRedirect } from '../lib/storage';
import type { SessionCore } from './state';

export const LOGOUT_PATH = '/v1/auth/logout/';

/** SPEC §4 Logout: tell the server (failure ignored), clear, remember the path, go to /login. */
export async function logOut(core: SessionCore, client: Pick<Client, 'post'>): Promise<void> {
  const { storage, deps } = core;
  const access = storage.get(KEYS.accessToken);
  const refreshToken = storage.get(KEYS.refreshToken);
  const sessionId = storage.getInt(KEYS.sessionId);
  const path = deps.currentPath();
  try {
    if (refreshToken) await client.post(LOGOUT_PATH, { refresh_token: refreshToken, session_id: sessionId });
  } catch {
    /* SPEC §4: failure ignored */
  }
  core.clear(true); // D41: logout removes this tab's drafts, an expiry keeps them
  storeRedirect(storage, path, subject(access));
  core.setLoggedOut();
  deps.navigate('/login', { replace: true });
}
