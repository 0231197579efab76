// D28 D29 D30: team, invitations, the permission matrix and the activity log, as the API answers them.
import { ROLES, type CustomerScope, type Permission, type Role } from './permissions';

export interface Member {
  user_id: number;
  name: string;
  email: string;
  role: Role;
  joined_at: string;
  /** D54: the member has two-step sign-in on (the team page offers to reset it). */
  mfa_enabled?: boolean;
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

/** D28: what a link that cannot be used says, by why: the server's detail, and what the invitation page shows. */
export const INVITATION_UNKNOWN = 'This invitation link is not valid. Check that you copied all of it, or ask for a new one.';
export const INVITATION_UNUSABLE: Readonly<Record<Exclude<InvitationStatus, 'pending'>, string>> = {
  accepted: 'This invitation has already been used.',
  revoked: 'This invitation was withdrawn. Ask the person who invited you for a new one.',
  expired: 'This invitation has expired. Ask the person who invited you for a new one.',
};

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
/** The longest password a login or an invitation takes (beyond it, hashing is only a cost). */
export const PASSWORD_MAX_LENGTH = 1024;
export const FIRST_NAME_MAX_LENGTH = 100;

/** GET /v1/permissions/: the organization's role × permission matrix (D29). */
export interface PermissionMatrix {
  roles: Role[];
  permissions: Permission[];
  matrix: Record<Role, Permission[]>;
  /** Roles whose row cannot be edited (the owner has everything). */
  fixed: Role[];
  /** D59: what each role sees of customers (the owner always 'all'). PUT /v1/permissions/ takes `scopes` beside `matrix` (optional: absent keeps them). */
  scopes: Record<Role, CustomerScope>;
}

/** D29: the matrix's areas, in the order the page shows them. */
export const PERMISSION_AREAS: { area: string; permissions: Permission[] }[] = [
  { area: 'Dashboard', permissions: ['dashboard:view'] },
  {
    area: 'Customers',
    permissions: ['customers:view', 'customers:create', 'customers:update', 'customers:delete', 'customers:export', 'customers:merge', 'fields:manage', 'views:manage'],
  },
  { area: 'Jobs', permissions: ['jobs:view'] },
  { area: 'Communication', permissions: ['sms:view', 'email:view', 'calls:view'] },
  { area: 'Team', permissions: ['team:view', 'team:manage'] },
  { area: 'Permissions', permissions: ['permissions:view', 'permissions:manage'] },
  { area: 'Activity', permissions: ['audit:view'] },
];

// ---- D28: who may change or remove whom. The server refuses, the team page does not offer, the test fake
// answers, all by these. A role is text here: the caller's role as the session or a row carries it.

export type TeamRefusal = 'own_role' | 'owner_required' | 'last_owner';
export const TEAM_REFUSAL_STATUS: Readonly<Record<TeamRefusal, 403 | 409>> = { own_role: 403, owner_required: 403, last_owner: 409 };
/** The server's words for each refusal; `what` completes the sentence for the call refused. */
export const TEAM_REFUSAL_WORDS = {
  own_role: () => 'You cannot change your own role; ask another owner or admin',
  owner_required: (what: string) => `Only an owner may ${what}`,
  last_owner: (what: string) => `The last owner cannot ${what}; make someone else an owner first`,
} satisfies Record<TeamRefusal, (what: string) => string>;

const OWNER: Role = 'owner';

/** D28: only an owner makes (invites, promotes to) an owner. */
export const assignableRoles = (actor: string | null): Role[] => (actor === OWNER ? [...ROLES] : ROLES.filter((r) => r !== OWNER));

/** D28: an owner's role, removal and invitation are an owner's business. */
export const ownerOnlyRefusal = (actor: string | null, role: string): TeamRefusal | null => (role === OWNER && actor !== OWNER ? 'owner_required' : null);

export const ownerCount = (members: readonly { role: string }[]): number => members.filter((m) => m.role === OWNER).length;

/** D28: nobody changes their own role; only an owner makes or unmakes an owner; the last owner stays one. */
export function roleChangeRefusal(c: { actor: string | null; self: boolean; from: string; to: string; owners: number }): TeamRefusal | null {
  if (c.self) return 'own_role';
  const owner = ownerOnlyRefusal(c.actor, c.from) ?? ownerOnlyRefusal(c.actor, c.to);
  if (owner) return owner;
  return c.from === OWNER && c.to !== OWNER && c.owners <= 1 ? 'last_owner' : null;
}

/** D28: only an owner removes an owner, and the last owner is never removed (nor leaves). */
export function removalRefusal(c: { actor: string | null; role: string; owners: number }): TeamRefusal | null {
  return ownerOnlyRefusal(c.actor, c.role) ?? (c.role === OWNER && c.owners <= 1 ? 'last_owner' : null);
}
