// SPEC §3 Browser storage keys. Every read and write goes through here and never throws:
// storage can be full, disabled or hold garbage written by an older build.

/** Every browser-storage key the app uses (SPEC §3, and D36's device_token). */
export const KEYS = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  sessionId: 'session_id',
  refreshExpiresAt: 'refresh_expires_at',
  rememberMe: 'remember_me',
  currentOrgId: 'current_org_id',
  postLoginRedirect: 'post_login_redirect',
  hydrationFailed: 'hydration_failed',
  toastReason: 'toast_reason',
  postLoginTriggered: 'post_login_triggered',
  theme: 'theme',
  /** D36: this browser signed in before (not a session; kept on logout, see docs/behaviour.md). */
  deviceToken: 'device_token',
} as const;

export type StorageKey = (typeof KEYS)[keyof typeof KEYS];

/** D41: drafts live in this tab's sessionStorage as `draft:{user}:{org}:{form}` (drafts/store.ts). */
export const DRAFT_PREFIX = 'draft:';

/** D41: logout removes every draft this tab holds. */
export function clearDrafts(): void {
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith(DRAFT_PREFIX)) sessionStorage.removeItem(key);
  } catch {
    /* disabled storage holds no drafts */
  }
}

/** The part of `Storage` the app needs; tests pass their own. */
export type KV = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function defaultStore(): KV | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // access can throw when storage is disabled
  }
}

export function createStorage(kv: KV | null = defaultStore()) {
  const get = (key: StorageKey): string | null => {
    try {
      return kv?.getItem(key) ?? null;
    } catch {
      return null;
    }
  };
  const set = (key: StorageKey, value: string): void => {
    try {
      kv?.setItem(key, value);
    } catch {
      /* quota or disabled storage: the app keeps working in memory */
    }
  };
  const remove = (key: StorageKey): void => {
    try {
      kv?.removeItem(key);
    } catch {
      /* see set */
    }
  };
  /** SPEC §3: session_id and current_org_id read back as integers, or null if absent or not numeric. */
  const getInt = (key: StorageKey): number | null => parseIntStrict(get(key));
  return { get, set, remove, getInt };
}

export type AppStorage = ReturnType<typeof createStorage>;

/** A whole decimal integer, or null: '12' → 12, '12abc', '', '1e3', '1.5' → null. */
export function parseIntStrict(raw: string | null | undefined): number | null {
  if (raw == null || !/^-?\d{1,15}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

/** The keys that make up a signed-in session (SPEC §3 Session). */
export const SESSION_KEYS: readonly StorageKey[] = [KEYS.accessToken, KEYS.refreshToken, KEYS.sessionId, KEYS.refreshExpiresAt, KEYS.rememberMe, KEYS.postLoginTriggered];

/**
 * Clears the session: removes the session keys and expires the access_token and
 * refresh_token cookies (SPEC §3). Preferences (theme, current_org_id) stay.
 */
export function clearSessionStorage(storage: AppStorage, doc: Pick<Document, 'cookie'> | null = globalThis.document ?? null, drafts = false) {
  for (const key of SESSION_KEYS) storage.remove(key);
  if (drafts) clearDrafts(); // D41: logout
  if (doc) {
    for (const name of [KEYS.accessToken, KEYS.refreshToken]) {
      doc.cookie = `${name}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/`;
    }
  }
}

// D6 post_login_redirect: an in-app path, and optionally whose session stored it.
export interface RedirectTarget {
  path: string;
  sub: string | null;
}

/** D6: an in-app path starts with one '/', not '//', and is not /login. */
export function isInAppPath(path: unknown): path is string {
  return (
    typeof path === 'string' &&
    path.startsWith('/') &&
    !path.startsWith('//') &&
    !path.startsWith('/\\') &&
    !/^\/login(?:[/?#]|$)/.test(path) &&
    !/[\u0000-\u001f]/.test(path)
  );
}

export function storeRedirect(storage: AppStorage, path: string, sub: string | null) {
  if (!isInAppPath(path)) return;
  // D6: a write that cannot tell whose it is (no token left) keeps the owner already recorded, so an
  // expired account's target is never handed to the next account.
  storage.set(KEYS.postLoginRedirect, JSON.stringify({ path, sub: sub ?? readRedirect(storage)?.sub ?? null }));
}

/** Reads post_login_redirect; accepts a bare path or the JSON form; garbage reads as null. */
export function readRedirect(storage: AppStorage): RedirectTarget | null {
  const raw = storage.get(KEYS.postLoginRedirect);
  if (raw == null) return null;
  if (raw.startsWith('/')) return isInAppPath(raw) ? { path: raw, sub: null } : null;
  try {
    const v: unknown = JSON.parse(raw);
    if (v && typeof v === 'object' && 'path' in v && isInAppPath(v.path)) {
      const sub = 'sub' in v && typeof v.sub === 'string' ? v.sub : null;
      return { path: v.path, sub };
    }
  } catch {
    /* broken JSON reads as no target */
  }
  return null;
}
