// D28: what the team page offers whom, by contract/team.ts's rules. The server refuses the rest (403
// owner_required / own_role, 409 last_owner); the page does not offer it (D9: hide what a person may not do).
import type { Role } from '../../../contract/permissions';
import { assignableRoles as rolesFor, ownerOnlyRefusal, removalRefusal, type Member } from '../../../contract/team';

export { ownerCount } from '../../../contract/team';

/** The person looking at the page: their email (members are matched by it) and their role here. */
export interface Viewer {
  email: string | null;
  role: string | null;
}

const OWNER: Role = 'owner';

export const isSelf = (m: Member, v: Viewer): boolean => v.email !== null && m.email.toLowerCase() === v.email.toLowerCase();

/** D28: only an owner makes (invites, promotes to) an owner. */
export const assignableRoles = (v: Viewer): Role[] => rolesFor(v.role);

/** D28: nobody changes their own role; only an owner changes an owner's. */
export const mayChangeRole = (m: Member, v: Viewer): boolean => !isSelf(m, v) && !ownerOnlyRefusal(v.role, m.role);

/**
 * D28: the last owner is never removed, and only an owner removes an owner. Leaving (removing oneself)
 * is not offered here.
 */
export function mayRemove(m: Member, v: Viewer, owners: number): boolean {
  return !isSelf(m, v) && !removalRefusal({ actor: v.role, role: m.role, owners });
}

/** D28: an owner's invitation is an owner's business. */
export const mayHandleInvitation = (role: Role, v: Viewer): boolean => !ownerOnlyRefusal(v.role, role);

/** 'member' → 'Member', for headings and menus. */
export const roleName = (role: string): string => role.charAt(0).toUpperCase() + role.slice(1);

export const WHY_OWNER_ONLY = 'Only an owner can change or remove an owner';
export const WHY_OWN_ROLE = 'You can’t change your own role';
export const WHY_LAST_OWNER = 'The last owner can’t leave; make someone else an owner first';

/**
 * D28: why a row offers neither a role menu nor Remove, in words beside it (nothing is left
 * unexplained). Null where something is offered.
 */
export function whyNotOffered(m: Member, v: Viewer, owners: number): string | null {
  if (isSelf(m, v)) return m.role === OWNER && owners <= 1 ? WHY_LAST_OWNER : WHY_OWN_ROLE;
  if (ownerOnlyRefusal(v.role, m.role)) return WHY_OWNER_ONLY;
  return null;
}
