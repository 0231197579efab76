// D54 D53: an owner or admin resets another member's two-step sign-in (a lost phone and no recovery
// codes): by D53's rule (vouch.ts), audited in this organization; the member then signs in with their
// password alone and may enrol again.
import { removeMfa } from '../../auth/mfa';
import { HttpError } from '../../http';
import { defineRoute, reply } from '../../route';
import { intText } from '../../schema';
import { memberTarget, vouchedMember } from './members';

/** DELETE /v1/team/members/{user_id}/mfa/ → 204. */
const resetMfa = defineRoute({
  method: 'DELETE',
  path: '/v1/team/members/:user_id/mfa/',
  access: 'org',
  permission: 'team:manage',
  params: { user_id: intText() },
  audit: 'account.mfa_reset',
  async handler({ tx, caller, params, audit }) {
    const member = await vouchedMember(tx, caller, params.user_id, () => new HttpError(400, 'own_account', 'Turn your own two-step sign-in off on your account page'));
    if (!(await removeMfa(tx, member.user_id))) throw new HttpError(409, 'mfa_not_enabled', `${member.name} has not turned on two-step sign-in`);
    audit({ target: memberTarget(member), changes: { email: member.email } });
    return reply(204);
  },
});

export const teamMfaRoutes = [resetMfa];
