// Validates the current-user response, chooses the organization (SPEC §4, D4) and takes both into the
// store.
import { isHttpError } from '../http/errors';
import { subject } from '../lib/jwt';
import { KEYS } from '../lib/storage';
import type { SessionCore } from './state';
import { SessionInvalidError, type Organization, type Profile } from './types';

/** D24: the signed-in person's id is the access token's subject (D16 sub), a positive integer; else null. */
export function userIdOf(token: string | null): number | null {
  const id = Number(subject(token) ?? NaN);
  return Number.isInteger(id) && id > 0 ? id : null;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function org(v: unknown): Organization | null {
  if (!isObj(v)) return null;
  const id = int(v.id);
  const name = str(v.name);
  if (id === null || name === null) return null;
  // D54: require_mfa, when the server says (kept out otherwise, so older answers read as before).
  return { id, name, logo_url: str(v.logo_url), ...(typeof v.require_mfa === 'boolean' ? { require_mfa: v.require_mfa } : {}) };
}

/** Parses GET /v1/auth/me/; throws SessionInvalidError when there is no user or no organization. */
export function parseProfile(data: unknown): Profile {
  if (!isObj(data) || !isObj(data.user) || str(data.user.email) === null) throw new SessionInvalidError();
  const organizations = Array.isArray(data.organizations) ? data.organizations.map(org).filter((o): o is Organization => o !== null) : [];
  if (organizations.length === 0) throw new SessionInvalidError();
  return {
    user: {
      email: str(data.user.email) ?? '',
      first_name: str(data.user.first_name) ?? '',
      avatar_url: str(data.user.avatar_url),
      ...(typeof data.user.mfa_enabled === 'boolean' ? { mfa_enabled: data.user.mfa_enabled } : {}), // D54
    },
    organizations,
    permissions: strings(data.permissions),
    features: strings(data.features),
    role: str(data.role),
    customers_scope: data.customers_scope === 'assigned' ? 'assigned' : 'all', // D59: anything else reads as 'all'
    prefs: isObj(data.prefs) ? data.prefs : {},
    favorite_org_id: int(data.favorite_org_id),
  };
}

/** D4: stored org if a member, else the favorite if a member, else the only one; otherwise none. */
export function chooseOrg(orgs: readonly Organization[], storedId: number | null, favoriteId: number | null): Organization | null {
  const byId = (id: number | null) => (id === null ? undefined : orgs.find((o) => o.id === id));
  return byId(storedId) ?? byId(favoriteId) ?? (orgs.length === 1 ? (orgs[0] ?? null) : null);
}

/** SPEC §4: the current user (the answer `first` of `me()`) and this tab's organization into the store. */
export async function takeProfile(core: SessionCore, me: () => Promise<unknown>, first: Promise<unknown>): Promise<void> {
  const data = await first.catch((error: unknown) => {
    // D4: a stored organization the user no longer belongs to is answered 403; forget it and ask again.
    if (!isHttpError(error, 403) || core.tabOrgId() === null) throw error;
    core.setTabOrg(null);
    return me();
  });
  const p = parseProfile(data);
  const org = chooseOrg(p.organizations, core.tabOrgId(), p.favorite_org_id);
  if (org && org.id !== core.tabOrgId()) core.setTabOrg(org.id);
  core.set({
    isAuthenticated: true,
    expired: false,
    signedOut: false,
    currentOrg: org,
    user: p.user,
    userId: userIdOf(core.storage.get(KEYS.accessToken)),
    organizations: p.organizations,
    permissions: org ? p.permissions : [],
    features: org ? p.features : [],
    role: org ? p.role : null,
    customersScope: org ? p.customers_scope : 'all',
    prefs: p.prefs,
    favoriteOrgId: p.favorite_org_id,
    hydrationError: null,
  });
}
