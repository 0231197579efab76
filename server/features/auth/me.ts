// SPEC §7 GET /v1/auth/me/: the user, their organizations, and role, permissions and features in the
// organization the request names (X-Organization-ID), else the favorite, else the only one (D4, D9).
// One query: the session's liveness is part of it (the route's access is 'token'), and the database
// writes the answer's JSON, sent as it comes.
import { notAMember, organizationIdFrom, sessionEnded } from '../../auth/access';
import { defineRoute, jsonText } from '../../route';
import { meAnswer } from './repo';

export const me = defineRoute({
  method: 'GET',
  path: '/v1/auth/me/',
  access: 'token',
  async handler({ req, ctx, tx, principal }) {
    const asked = organizationIdFrom(req);
    const row = await meAnswer(tx, principal.userId, principal.sessionId, asked);
    if (!row || row.expires_at.getTime() <= ctx.now()) throw sessionEnded();
    if (asked !== null && row.picked === null) throw notAMember(asked); // D9: never another organization's role
    return jsonText(row.body);
  },
});
