// What the account test files share (D51–D53): paths, a second sign-in of a person (its own session, with
// a User-Agent), calls with a session's token, and the audit entries of an action.
import type { Api } from './backends';
import { tokens, type Reply, type TestServer, type Tokens } from './helpers';
import type { Person } from './people';

export const ACCOUNT = '/api/v1/account/';
export const PASSWORD = '/api/v1/account/password/';
export const SESSIONS = '/api/v1/account/sessions/';
export const REVOKE_OTHERS = '/api/v1/account/sessions/revoke-others/';
export const sessionPath = (id: number | string) => `/api/v1/account/sessions/${id}/`;
export const resetLinkPath = (userId: number) => `/api/v1/team/members/${userId}/reset-link/`;
export const resetPath = (token: string) => `/api/v1/password-resets/${token}/`;

export const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
export const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** A session of its own for the person (a login from another browser), with this User-Agent. */
export async function signInAgain(api: Api, p: Pick<Person, 'email' | 'password'>, userAgent = FIREFOX_LINUX, password = p.password): Promise<Tokens> {
  return tokens(await api.post('/api/v1/auth/login/', { email: p.email, password }, { 'User-Agent': userAgent }));
}

/** A call with a session's access token (no organization: the account routes take none). */
export function as(api: Api, accessToken: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return api.request(path, {
    method,
    headers: { Authorization: `Bearer ${accessToken}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

export type AuditRow = { org_id: unknown; actor_id: unknown; target_type: string; target_id: unknown; changes: Record<string, unknown> };

/** The entries of one action about one person, oldest first. */
export const auditAbout = (server: TestServer, action: string, userId: number) =>
  server.db.query<AuditRow>('select org_id, actor_id, target_type, target_id, changes from audit_log where action = $1 and target_id = $2 order by id', [action, userId]);
