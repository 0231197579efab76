// D28: what the team page offers whom. The server refuses the rest (403 owner_required / own_role,
// 409 last_owner); the page does not offer it in the first place (D9: hide what a person may not do).
import { ROLES, type Role } from '../../../contract/permissions';
import type { Member } from '../../../contract/team';

/** The person looking at the page: their email (members are matched by it) and their role here. */
export interface Viewer {
  email: string | null;
  role: string | null;
}

const OWNER: Role = 'owner';

export const isSelf = (m: Member, v: Viewer): boolean => v.email !== null && m.email.toLowerCase() === v.email.toLowerCase();

/** D28: only an owner makes (invites, promotes to) an owner. */
export const assignableRoles = (v: Viewer): Role[] => (v.role === OWNER ? [...ROLES] : ROLES.filter((r) => r !== OWNER));

/** D28: nobody changes their own role; only an owner changes an owner's. */
export const mayChangeRole = (m: Member, v: Viewer): boolean => !isSelf(m, v) && (m.role !== OWNER || v.role === OWNER);

/**
 * D28: the last owner is never removed, and only an owner removes an owner. Leaving (removing oneself)
 * is not offered here.
 */
export function mayRemove(m: Member, v: Viewer, owners: number): boolean {
  if (isSelf(m, v)) return false;
  return m.role !== OWNER || (v.role === OWNER && owners > 1);
}

/** D28: an owner's invitation is an owner's business. */
export const mayHandleInvitation = (role: Role, v: Viewer): boolean => role !== OWNER || v.role === OWNER;

export const ownerCount = (members: readonly Member[]): number => members.filter((m) => m.role === OWNER).length;

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
  if (m.role === OWNER && v.role !== OWNER) return WHY_OWNER_ONLY;
  return null;
}
