// D54 two-step sign-in calls: the person's own (setup, confirm, new recovery codes, turn off; no
// organization needed) and a team member's reset (team:manage, D53's rule). Types from contract/account.ts.
import type { MfaConfirmed, MfaDisable, MfaPassword, MfaSetup } from '../../contract/account';
import type { Client } from '../http/client';
import { isHttpError } from '../http/errors';
import type { MutationDef } from '../query/cache';
import { dashboardKey, teamKeys } from './team';

export const MFA_SETUP_PATH = '/v1/account/mfa/setup/';
export const MFA_CONFIRM_PATH = '/v1/account/mfa/confirm/';
export const MFA_PATH = '/v1/account/mfa/';
export const MFA_RECOVERY_CODES_PATH = '/v1/account/mfa/recovery-codes/';
export const memberMfaPath = (userId: number) => `/v1/team/members/${userId}/mfa/`;

type Calls = Pick<Client, 'post' | 'request'>;
/** The person's own calls go without X-Organization-ID: an organization that requires two-step sign-in must not refuse its setup. */
const ACCOUNT = { noOrg: true } as const;

/** D54: a new secret and its otpauth:// URI, for the current password (409 mfa_enabled when already on). */
export const setupMfa = (client: Calls, body: MfaPassword) => client.post<MfaSetup>(MFA_SETUP_PATH, body, ACCOUNT);
/** D54: the first code from the app turns it on; the 10 recovery codes come back once. */
export const confirmMfa = (client: Calls, code: string) => client.post<MfaConfirmed>(MFA_CONFIRM_PATH, { code }, ACCOUNT);
/** D54: a new set of 10 recovery codes for the current password; the old set stops working. */
export const renewRecoveryCodes = (client: Calls, body: MfaPassword) => client.post<MfaConfirmed>(MFA_RECOVERY_CODES_PATH, body, ACCOUNT);
/** D54: turning it off takes the password and a code. */
export const disableMfa = (client: Calls, body: MfaDisable) => client.request<null>('DELETE', MFA_PATH, { body, ...ACCOUNT });
/** D54 D53: a member's two-step sign-in reset by someone with team:manage. */
export const resetMemberMfa = (client: Calls, userId: number) => client.request<null>('DELETE', memberMfaPath(userId), {});

/** D54 D53: the reset as a change of the team's list (its flag) and of the activity log (audited). */
export const resetMfaMutation = (client: Calls, orgId: number | null) =>
  ({
    run: (userId: number) => resetMemberMfa(client, userId),
    invalidates: [teamKeys.members(orgId), teamKeys.audit(orgId), dashboardKey(orgId)],
  }) satisfies MutationDef<number, null>;

/** D54: the refusals a code or password can meet, by the server's code. */
export const isInvalidCode = (e: unknown) => isHttpError(e, 400) && e.code === 'invalid_code';
export const isWrongPassword = (e: unknown) => isHttpError(e, 400) && e.code === 'wrong_password';

/** The key typed out in groups of 4 (as authenticator apps show it). */
export const groupKey = (secret: string): string => secret.replace(/\s/g, '').replace(/(.{4})(?=.)/g, '$1 ');
