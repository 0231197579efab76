// D28 D29 D30: team, invitations, the permission matrix and the activity log, as the API answers them.
import type { Permission, Role } from './permissions';

export interface Member {
  user_id: number;
  name: string;
  email: string;
  role: Role;
  joined_at: string;
}

/** A pending invitation (the token itself is only ever shown once, when made or renewed). */
export interface Invitation {
  id: number;
  email: string;
  role: Role;
  invited_by: { id: number; name: string } | null;
  created_at: string;
  expires_at: string;
}

/** POST /v1/team/invitations/ and …/renew/: the invitation with its link, shown once. */
export interface IssuedInvitation extends Invitation {
  token: string;
  /** The app's path to open: /invite/{token}. */
  path: string;
}

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

/** GET /v1/invitations/{token}/ (public). */
export interface InvitationLookup {
  organization: { id: number; name: string; logo_url: string | null };
  inviter: string | null;
  email: string;
  role: Role;
  status: InvitationStatus;
  /** True when an account with this email exists: the person signs in to join rather than signing up. */
  has_account: boolean;
}

/** POST /v1/invitations/{token}/accept/: the organization joined, and for a new account its tokens (as login). */
export interface AcceptedInvitation {
  org_id: number;
  access_token?: string;
  refresh_token?: string;
  session_id?: number;
  refresh_expires_at?: string;
}

export const INVITATION_LIFETIME_DAYS = 7; // D28
export const PASSWORD_MIN_LENGTH = 12; // D28
export const FIRST_NAME_MAX_LENGTH = 100;

/** GET /v1/permissions/: the organization's role × permission matrix (D29). */
export interface PermissionMatrix {
  roles: Role[];
  permissions: Permission[];
  matrix: Record<Role, Permission[]>;
  /** Roles whose row cannot be edited (the owner has everything). */
  fixed: Role[];
}

/** D29: the matrix's areas, in the order the page shows them. */
export const PERMISSION_AREAS: { area: string; permissions: Permission[] }[] = [
  { area: 'Dashboard', permissions: ['dashboard:view'] },
  { area: 'Customers', permissions: ['customers:view', 'customers:create', 'customers:update', 'customers:delete', 'customers:export'] },
  { area: 'Jobs', permissions: ['jobs:view'] },
  { area: 'Communication', permissions: ['sms:view', 'email:view', 'calls:view'] },
  { area: 'Team', permissions: ['team:view', 'team:manage'] },
  { area: 'Permissions', permissions: ['permissions:view', 'permissions:manage'] },
  { area: 'Activity', permissions: ['audit:view'] },
];
