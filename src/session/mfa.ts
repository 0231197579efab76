// D54: what the session knows of two-step sign-in: whether the person has it on (`user.mfa_enabled`) and
// whether the organization this tab shows requires it (`currentOrg.require_mfa`, from me). The router's
// guard (RequireOrg) sends a person the organization requires it of to /account to turn it on.
import type { SessionCore } from './state';
import type { SessionState } from './types';

/** D54: a person in an organization that requires two-step sign-in, without it: to enrol before any of its pages. */
export const mustEnrolMfa = (s: Pick<SessionState, 'currentOrg' | 'user'>): boolean => s.currentOrg?.require_mfa === true && s.user?.mfa_enabled !== true;

/** D54: two-step sign-in turned on or off (the account page), so the guard lets the person on (or not). */
export function markMfa({ store, set }: SessionCore, enabled: boolean): void {
  const { user } = store.getState();
  if (user) set({ user: { ...user, mfa_enabled: enabled } });
}

/**
 * D54: an organization's call answered 403 mfa_enrolment_required: the server says this organization
 * requires two-step sign-in and the person has it off; the store says so too, and the guard acts on it.
 */
export function requireMfa({ store, set }: SessionCore): void {
  const { user, currentOrg, organizations } = store.getState();
  if (!user || !currentOrg) return;
  const org = { ...currentOrg, require_mfa: true };
  set({ user: { ...user, mfa_enabled: false }, currentOrg: org, organizations: organizations.map((o) => (o.id === org.id ? org : o)) });
}
