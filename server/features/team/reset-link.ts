// D53: a one-time password reset link for another member, made by team:manage where D53's rule allows it
// (vouch.ts), valid 1 hour, its token answered once (the app shows /reset/{token}); audited here.
import type { IssuedResetLink } from '../../../contract/account';
import { createReset } from '../../password-resets';
import { HttpError } from '../../http';
import { defineRoute, reply } from '../../route';
import { intText } from '../../schema';
import { findMember } from './repo';
import { mayVouchFor } from '../../vouch';

export const resetLink = defineRoute({
  method: 'POST',
  path: '/v1/team/members/:user_id/reset-link/',
  access: 'org',
  permission: 'team:manage',
  params: { user_id: intText() },
  audit: 'account.reset_link_created',
  async handler({ tx, ctx, caller, params, audit }) {
    if (params.user_id === caller.userId) throw new HttpError(400, 'own_account', 'Change your own password on your account page', {}, { field: 'user_id' });
    const refusal = await mayVouchFor(tx, caller.org.id, caller.userId, params.user_id);
    if (refusal) throw new HttpError(refusal.status, refusal.code, refusal.detail);
    const member = await findMember(tx, caller.org.id, params.user_id);
    if (!member) throw new HttpError(404, 'not_found', 'No such member');
    const { token, expiresAt } = await createReset(tx, member.user_id, caller.org.id, caller.userId, new Date(ctx.now()));
    audit({ target: { type: 'member', id: member.user_id, label: member.name }, changes: { email: member.email, expires_at: expiresAt.toISOString() } });
    return reply(201, { token, expires_at: expiresAt.toISOString() } satisfies IssuedResetLink);
  },
});
