// D53: a one-time password reset link for another member, made by team:manage where D53's rule allows it
// (vouch.ts), valid 1 hour, its token answered once (the app shows /reset/{token}); audited here.
import type { IssuedResetLink } from '../../../contract/account';
import { createReset } from '../../password-resets';
import { HttpError } from '../../http';
import { defineRoute, reply } from '../../route';
import { intText } from '../../schema';
import { memberTarget, vouchedMember } from './members';

export const resetLink = defineRoute({
  method: 'POST',
  path: '/v1/team/members/:user_id/reset-link/',
  access: 'org',
  permission: 'team:manage',
  params: { user_id: intText() },
  audit: 'account.reset_link_created',
  async handler({ tx, ctx, caller, params, audit }) {
    const ownAccount = () => new HttpError(400, 'own_account', 'Change your own password on your account page', {}, { field: 'user_id' });
    const member = await vouchedMember(tx, caller, params.user_id, ownAccount);
    const { token, expiresAt } = await createReset(tx, member.user_id, caller.org.id, caller.userId, new Date(ctx.now()));
    audit({ target: memberTarget(member), changes: { email: member.email, expires_at: expiresAt.toISOString() } });
    return reply(201, { token, expires_at: expiresAt.toISOString() } satisfies IssuedResetLink);
  },
});
