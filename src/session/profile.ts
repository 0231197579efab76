// Validates the current-user response and chooses the organization (SPEC §4, D4). Pure functions,
// loaded on use (controller.ts): a signed-out person's login form does not wait for them.
import { SessionInvalidError, type Organization, type Profile } from './types';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function org(v: unknown): Organization | null {
  if (!isObj(v)) return null;
  const id = int(v.id);
  const name = str(v.name);
  return id === null || name === null ? null : { id, name, logo_url: str(v.logo_url) };
}

/** Parses GET /v1/auth/me/; throws SessionInvalidError when there is no user or no organization. */
export function parseProfile(data: unknown): Profile {
  if (!isObj(data) || !isObj(data.user) || str(data.user.email) === null) throw new SessionInvalidError();
  const organizations = Array.isArray(data.organizations) ? data.organizations.map(org).filter((o): o is Organization => o !== null) : [];
  if (organizations.length === 0) throw new SessionInvalidError();
  return {
    user: { email: str(data.user.email) ?? '', first_name: str(data.user.first_name) ?? '', avatar_url: str(data.user.avatar_url) },
    organizations,
    permissions: strings(data.permissions),
    features: strings(data.features),
    role: str(data.role),
    prefs: isObj(data.prefs) ? data.prefs : {},
    favorite_org_id: int(data.favorite_org_id),
  };
}

/** D4: stored org if a member, else the favorite if a member, else the only one; otherwise none. */
export function chooseOrg(orgs: readonly Organization[], storedId: number | null, favoriteId: number | null): Organization | null {
  const byId = (id: number | null) => (id === null ? undefined : orgs.find((o) => o.id === id));
  return byId(storedId) ?? byId(favoriteId) ?? (orgs.length === 1 ? (orgs[0] ?? null) : null);
}
