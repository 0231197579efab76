// D52 the person's own sessions: the live ones listed (browser and system from the User-Agent, address,
// started, last active, 'This browser'), one signed out, or every other. A signed-out session's next
// request is a 401 and its refresh fails (sessions.ts refuses a revoked session's refresh token).
import type { EndedSessions, SessionList, SessionView } from '../../../contract/account';
import { defineRoute, reply } from '../../route';
import { intText } from '../../schema';
import { HttpError } from '../../http';
import { auditAccount } from './audit';
import { liveSessions, revokeSessions, type SessionRow } from './repo';
import { userAgentWords } from './user-agent';

const sessionView = (s: SessionRow, currentId: number): SessionView => ({
  id: s.id,
  ...userAgentWords(s.user_agent),
  address: s.address,
  started_at: s.created_at.toISOString(),
  last_active_at: s.last_active_at?.toISOString() ?? null,
  current: s.id === currentId,
});

const listSessions = defineRoute({
  method: 'GET',
  path: '/v1/account/sessions/',
  access: 'user',
  handler: async ({ ctx, tx, caller }): Promise<SessionList> => ({
    results: (await liveSessions(tx, caller.userId, caller.sessionId, new Date(ctx.now()))).map((s) => sessionView(s, caller.sessionId)),
  }),
});

/** The words a revocation's entry keeps: which session, as the list showed it (never a token). */
const sessionWords = (s: SessionRow | undefined) => (s ? { session_id: s.id, ...userAgentWords(s.user_agent), address: s.address } : {});

/** D52: one of the person's live sessions ends (their current one too: that is signing out); another person's or an unknown one is a 404. */
const revokeOne = defineRoute({
  method: 'DELETE',
  path: '/v1/account/sessions/:id/',
  access: 'user',
  params: { id: intText({ max: Number.MAX_SAFE_INTEGER }) },
  async handler({ ctx, tx, caller, params }) {
    const now = new Date(ctx.now());
    const [found] = (await liveSessions(tx, caller.userId, caller.sessionId, now)).filter((s) => s.id === params.id);
    if (!found) throw new HttpError(404, 'not_found', 'No such session');
    await revokeSessions(tx, caller.userId, 'signed_out', now, { only: found.id });
    await auditAccount(tx, caller, 'account.session_revoked', { ...sessionWords(found), current: found.id === caller.sessionId }, now);
    return reply(204);
  },
});

/** D52: every other live session of the person ends; this one continues. */
const revokeOthers = defineRoute({
  method: 'POST',
  path: '/v1/account/sessions/revoke-others/',
  access: 'user',
  async handler({ ctx, tx, caller }): Promise<EndedSessions> {
    const now = new Date(ctx.now());
    const ended = await revokeSessions(tx, caller.userId, 'signed_out', now, { keep: caller.sessionId });
    if (ended.length) await auditAccount(tx, caller, 'account.session_revoked', { ended_sessions: ended.length }, now);
    return { ended_sessions: ended.length };
  },
});

export const sessionRoutes = [listSessions, revokeOne, revokeOthers];
