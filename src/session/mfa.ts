// D54: whether the person must turn on two-step sign-in before any page of the organization this tab
// shows: it requires it (`currentOrg.require_mfa`, from me) and they have it off (`user.mfa_enabled`).
// The router's guard (RequireOrg) sends them to /account; the rest of D54's session code is mfa-sign-in.ts.
import type { SessionState } from './types';

export const mustEnrolMfa = (s: Pick<SessionState, 'currentOrg' | 'user'>): boolean => s.currentOrg?.require_mfa === true && s.user?.mfa_enabled !== true;
