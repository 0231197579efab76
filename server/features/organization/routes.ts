// D54 the organization's settings (the start of its settings page): `require_mfa`. Any member reads
// them, only an owner changes them (a role, not a permission: D29's matrix cannot hand it out). Reached
// with a live session and X-Organization-ID, membership checked here rather than by the organization
// access check, so a member held back by require_mfa (auth/access.ts) still reads why, and an owner
// without two-step sign-in can still turn the requirement off. D30: a change is audited.
import type { OrganizationSettings } from '../../../contract/account';
import { notAMember, ORG_HEADER_NAME, organizationIdFrom } from '../../auth/access';
import { fieldError, HttpError } from '../../http';
import { defineRoute } from '../../route';
import { bool } from '../../schema';
import { exportRoutes } from './export-routes';
import { setRequireMfa, settingsFor } from './repo';
import type { IncomingMessage } from 'node:http';

const PATH = '/v1/organization/settings/';

function orgOf(req: IncomingMessage): number {
  const orgId = organizationIdFrom(req);
  if (orgId === null) throw fieldError(ORG_HEADER_NAME, 'header is required', 'missing_organization_id');
  return orgId;
}

const read = defineRoute({
  method: 'GET',
  path: PATH,
  access: 'user',
  async handler({ req, tx, caller }): Promise<OrganizationSettings> {
    const orgId = orgOf(req);
    const found = await settingsFor(tx, orgId, caller.userId);
    if (!found) throw notAMember(orgId);
    return { require_mfa: found.require_mfa };
  },
});

/** PATCH { require_mfa } → the settings; an unchanged value writes nothing and leaves no entry. */
const change = defineRoute({
  method: 'PATCH',
  path: PATH,
  access: 'user',
  body: { require_mfa: bool() },
  async handler({ req, tx, caller, body, audit }): Promise<OrganizationSettings> {
    const orgId = orgOf(req);
    const found = await settingsFor(tx, orgId, caller.userId, true); // D38: the role as it is now, under the row's lock
    if (!found) throw notAMember(orgId);
    if (found.role !== 'owner') throw new HttpError(403, 'owner_required', 'Only an owner can change the organization settings');
    if (found.require_mfa !== body.require_mfa) {
      await setRequireMfa(tx, orgId, body.require_mfa);
      audit({
        orgId,
        action: 'organization.settings_updated',
        target: { type: 'organization', id: orgId, label: 'Organization settings' },
        changes: { require_mfa: { from: found.require_mfa, to: body.require_mfa } },
      });
    }
    return { require_mfa: body.require_mfa };
  },
});

export const organizationRoutes = [read, change, ...exportRoutes];
