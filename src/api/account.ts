// D51–D53: the person's own account and sessions (no organization: the person's, not an
// organization's), and the public reset-link calls, with their cache keys as api/team.ts does.
import { useMemo } from 'react';
import type { AccountPatch, AccountView, EndedSessions, PasswordChange, ResetDone, ResetLookup, SessionView } from '../../contract/account';
import { HttpError, isHttpError } from '../http/errors';
import type { Client } from '../http/client';
import type { MutationDef, QueryDef, QueryKey } from '../query/cache';
import { useSession, useSessionActions } from '../session/use-session';

export const ACCOUNT_PATH = '/v1/account/';
export const PASSWORD_PATH = '/v1/account/password/';
export const SESSIONS_PATH = '/v1/account/sessions/';
export const REVOKE_OTHERS_PATH = '/v1/account/sessions/revoke-others/';
/** D53: the public reset calls (no session needed). */
export const RESETS_PATH = '/v1/password-resets/';

/** Words for the refusals a form puts on a field. */
export const MSG_WRONG_PASSWORD = 'The current password is not right';
export const MSG_EMAIL_TAKEN = 'Another account already uses this email';

/** The person's keys: by user, so another person signing in on this browser never sees them. */
export const accountKeys = {
  all: (userId: number | null): QueryKey => ['account', userId],
  sessions: (userId: number | null): QueryKey => ['account', userId, 'sessions'],
};

const sessionPath = (id: number) => `${SESSIONS_PATH}${id}/`;
const resetPath = (token: string) => `${RESETS_PATH}${encodeURIComponent(token)}/`;

/**
 * A refusal that belongs to a field, as the form puts it there (ui/form.tsx reads a 400's `field`):
 * `errors` per field (the first one), a wrong current password, a taken email. Anything else as it was.
 */
export function onField(error: unknown): unknown {
  if (!isHttpError(error) || (error.status !== 400 && error.status !== 409)) return error;
  const data = (error.data ?? {}) as { errors?: Record<string, unknown> };
  const errors = data.errors && typeof data.errors === 'object' ? data.errors : {};
  const [first] = Object.entries(errors).filter(([, v]) => typeof v === 'string' || Array.isArray(v));
  const words = (v: unknown) => (Array.isArray(v) ? String(v[0] ?? '') : String(v));
  let field: [string, string] | null = null;
  if (error.code === 'wrong_password') field = ['current_password', MSG_WRONG_PASSWORD];
  else if (error.code === 'email_taken') field = ['email', MSG_EMAIL_TAKEN];
  else if (error.status === 400 && first) field = [first[0], words(first[1])];
  if (!field) return error;
  return new HttpError(400, { detail: field[1], code: error.code, field: field[0] }, error.path);
}

/** An answer of another shape is an error here, not a crash in a form later. */
function parseAccount(data: unknown): AccountView {
  const a = data as Partial<AccountView> | null;
  if (!a || typeof a.email !== 'string' || typeof a.first_name !== 'string') throw new TypeError('Unexpected answer from the server');
  return a as AccountView;
}

/** The person's own calls go without X-Organization-ID (D54: an organization requiring two-step sign-in must not refuse them). */
const NO_ORG = { noOrg: true } as const;

/** Rejects with the refusal on its field (onField). */
const fielded = <T>(p: Promise<T>): Promise<T> => p.catch((e: unknown) => Promise.reject(onField(e)));

export function accountApi({ client, userId }: { client: Pick<Client, 'get' | 'post' | 'patch' | 'delete'>; userId: number | null }) {
  const sessionsChanged = [accountKeys.sessions(userId)];
  return {
    account: (): QueryDef<AccountView> => ({
      key: accountKeys.all(userId),
      fetch: async (signal) => parseAccount(await client.get(ACCOUNT_PATH, { signal, noOrg: true })),
    }),
    sessions: (): QueryDef<SessionView[]> => ({
      key: accountKeys.sessions(userId),
      fetch: async (signal) => {
        const list = (await client.get<{ results?: unknown }>(SESSIONS_PATH, { signal, noOrg: true }))?.results;
        if (!Array.isArray(list)) throw new TypeError('Unexpected answer from the server');
        return list as SessionView[];
      },
    }),
    /** D51: 400 validation_error / wrong_password, 409 email_taken, each on its field. */
    update: {
      run: async (patch: AccountPatch) => parseAccount(await fielded(client.patch(ACCOUNT_PATH, patch, NO_ORG))),
      invalidates: [accountKeys.all(userId)],
    } satisfies MutationDef<AccountPatch, AccountView>,
    /** D51: every other session ends; this one goes on. */
    changePassword: {
      run: (change: PasswordChange) => fielded(client.post<EndedSessions>(PASSWORD_PATH, change, NO_ORG)),
      invalidates: sessionsChanged,
    } satisfies MutationDef<PasswordChange, EndedSessions>,
    /** D52: 204; another person's or an unknown one is 404. */
    revoke: { run: (id: number) => client.delete<null>(sessionPath(id), NO_ORG), invalidates: sessionsChanged } satisfies MutationDef<number, null>,
    revokeOthers: { run: (_: void) => client.post<EndedSessions>(REVOKE_OTHERS_PATH, undefined, NO_ORG), invalidates: sessionsChanged } satisfies MutationDef<
      void,
      EndedSessions
    >,
  };
}

export type AccountApi = ReturnType<typeof accountApi>;

/** The signed-in person's account calls, for a screen. */
export function useAccountApi(): AccountApi {
  const { client } = useSessionActions();
  const userId = useSession().userId;
  return useMemo(() => accountApi({ client, userId }), [client, userId]);
}

/** D53: the public reset page's calls, sent without a session's token when there is none. */
export function resetApi(client: Pick<Client, 'get' | 'post'>) {
  return {
    lookup: (token: string, signal?: AbortSignal) => client.get<ResetLookup>(resetPath(token), { signal, optionalAuth: true }),
    /** 400 validation_error on `password`; 410 reset_used / reset_expired. */
    reset: (token: string, password: string) => fielded(client.post<ResetDone>(resetPath(token), { password }, { optionalAuth: true })),
  };
}
