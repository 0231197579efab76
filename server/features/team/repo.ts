// D28: members and invitations, SQL only, scoped by organization.
import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '../../../contract/permissions';
import type { Invitation, InvitationStatus, Member } from '../../../contract/team';
import type { Queryable } from '../../db';
import { num } from '../../db';

const TOKEN_BYTES = 32;
export const newInvitationToken = () => randomBytes(TOKEN_BYTES).toString('base64url');
export const hashInvitationToken = (token: string) => createHash('sha256').update(`invitation:${token}`).digest('hex');

type MemberRow = { user_id: unknown; name: string; email: string; role: Role; joined_at: Date; mfa_enabled: boolean };
const toMember = (r: MemberRow): Member => ({
  user_id: num(r.user_id),
  name: r.name,
  email: r.email,
  role: r.role,
  joined_at: r.joined_at.toISOString(),
  mfa_enabled: r.mfa_enabled,
});

// D54: whether the member has two-step sign-in on (the team page offers its reset only then).
const MEMBER_SELECT = `
  select m.user_id, u.first_name as name, u.email, m.role, m.created_at as joined_at,
         exists (select 1 from user_mfa f where f.user_id = m.user_id and f.enabled_at is not null) as mfa_enabled
    from memberships m join users u on u.id = m.user_id`;

export async function listMembers(db: Queryable, orgId: number): Promise<Member[]> {
  const rows = await db.query<MemberRow>(`${MEMBER_SELECT} where m.org_id = $1 order by lower(u.first_name), u.id`, [orgId]);
  return rows.map(toMember);
}

export async function findMember(db: Queryable, orgId: number, userId: number, opts: { lock?: boolean } = {}): Promise<Member | null> {
  const [row] = await db.query<MemberRow>(`${MEMBER_SELECT} where m.org_id = $1 and m.user_id = $2${opts.lock ? ' for update of m' : ''}`, [orgId, userId]);
  return row ? toMember(row) : null;
}

/** Whether someone with this (lower-case) email is a member of the organization. */
export async function isMemberEmail(db: Queryable, orgId: number, email: string): Promise<boolean> {
  const rows = await db.query('select 1 from memberships m join users u on u.id = m.user_id where m.org_id = $1 and lower(u.email) = $2', [orgId, email]);
  return rows.length > 0;
}

/** D28: owners, counted under a lock on their rows, so two demotions at once cannot both pass. */
export async function ownerCount(db: Queryable, orgId: number): Promise<number> {
  const rows = await db.query("select user_id from memberships where org_id = $1 and role = 'owner' for update", [orgId]);
  return rows.length;
}

export async function setRole(db: Queryable, orgId: number, userId: number, role: Role): Promise<void> {
  await db.query('update memberships set role = $3 where org_id = $1 and user_id = $2', [orgId, userId, role]);
}

/**
 * D28 D59: the membership ends, and the customers assigned to the member are unassigned first, in the
 * same transaction (each a change of its own: version and updated_at move, so an open form sees it).
 * Answers the customers unassigned, for the removal's audit entry (their timelines read it).
 */
export async function removeMember(db: Queryable, orgId: number, userId: number, actorId: number, now: Date): Promise<number[]> {
  const unassigned = await db.query<{ id: unknown }>(
    `update customers set assigned_to = null, version = version + 1, updated_at = $3, updated_by = $4
      where org_id = $1 and assigned_to = $2 returning id`,
    [orgId, userId, now, actorId],
  );
  await db.query('delete from memberships where org_id = $1 and user_id = $2', [orgId, userId]);
  return unassigned.map((r) => num(r.id)).sort((a, b) => a - b);
}

type InvitationRow = {
  id: unknown;
  email: string;
  role: Role;
  invited_by: unknown;
  inviter: string | null;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
};

const INVITATION_SELECT = `
  select i.id, i.email, i.role, i.invited_by, u.first_name as inviter, i.created_at, i.expires_at, i.accepted_at, i.revoked_at
    from invitations i left join users u on u.id = i.invited_by`;

const toInvitation = (r: InvitationRow): Invitation => ({
  id: num(r.id),
  email: r.email,
  role: r.role,
  invited_by: r.invited_by === null ? null : { id: num(r.invited_by), name: r.inviter ?? '' },
  created_at: r.created_at.toISOString(),
  expires_at: r.expires_at.toISOString(),
});

export function invitationStatus(r: Pick<InvitationRow, 'accepted_at' | 'revoked_at' | 'expires_at'>, now: Date): InvitationStatus {
  if (r.accepted_at) return 'accepted';
  if (r.revoked_at) return 'revoked';
  return r.expires_at.getTime() <= now.getTime() ? 'expired' : 'pending';
}

/** Pending invitations: not accepted, not revoked, not expired; newest first. */
export async function listInvitations(db: Queryable, orgId: number, now: Date): Promise<Invitation[]> {
  const rows = await db.query<InvitationRow>(
    `${INVITATION_SELECT} where i.org_id = $1 and i.accepted_at is null and i.revoked_at is null and i.expires_at > $2 order by i.created_at desc, i.id desc`,
    [orgId, now],
  );
  return rows.map(toInvitation);
}

export async function findInvitation(db: Queryable, orgId: number, id: number): Promise<(Invitation & { status: InvitationStatus }) | null> {
  const [row] = await db.query<InvitationRow>(`${INVITATION_SELECT} where i.org_id = $1 and i.id = $2 for update of i`, [orgId, id]);
  return row ? { ...toInvitation(row), status: invitationStatus(row, new Date(0)) } : null;
}

/** The not-yet-used invitation for this email, if any (expired ones included: they are replaced). */
export async function openInvitationFor(db: Queryable, orgId: number, email: string): Promise<Invitation | null> {
  const [row] = await db.query<InvitationRow>(
    `${INVITATION_SELECT} where i.org_id = $1 and lower(i.email) = lower($2) and i.accepted_at is null and i.revoked_at is null for update of i`,
    [orgId, email],
  );
  return row ? toInvitation(row) : null;
}

export async function createInvitation(
  db: Queryable,
  orgId: number,
  email: string,
  role: Role,
  invitedBy: number,
  now: Date,
  expiresAt: Date,
): Promise<{ invitation: Invitation; token: string }> {
  const token = newInvitationToken();
  const [row] = await db.query<{ id: unknown }>(
    `insert into invitations (org_id, email, role, token_hash, invited_by, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [orgId, email, role, hashInvitationToken(token), invitedBy, now, expiresAt],
  );
  const { status: _status, ...invitation } = (await findInvitation(db, orgId, num(row?.id)))!;
  return { invitation, token };
}

export async function revokeInvitation(db: Queryable, orgId: number, id: number, now: Date): Promise<void> {
  await db.query('update invitations set revoked_at = $3 where org_id = $1 and id = $2', [orgId, id, now]);
}

/** An invitation by its token, in any organization (the public look-up), locked for accepting. */
export async function invitationByToken(db: Queryable, token: string) {
  const [row] = await db.query<InvitationRow & { org_id: unknown; org_name: string; logo_url: string | null; has_account: boolean }>(
    `select i.id, i.org_id, o.name as org_name, o.logo_url, i.email, i.role, i.invited_by, u.first_name as inviter, i.created_at,
            i.expires_at, i.accepted_at, i.revoked_at,
            exists (select 1 from users a where lower(a.email) = lower(i.email)) as has_account
       from invitations i join organizations o on o.id = i.org_id left join users u on u.id = i.invited_by
      where i.token_hash = $1 for update of i`,
    [hashInvitationToken(token)],
  );
  return row ? { ...row, id: num(row.id), org_id: num(row.org_id) } : null;
}

export async function markAccepted(db: Queryable, orgId: number, id: number, userId: number, now: Date): Promise<void> {
  await db.query('update invitations set accepted_at = $3, accepted_by = $4 where org_id = $1 and id = $2', [orgId, id, now, userId]);
}

/** Whether an account has this email, whatever its case. */
export async function hasAccount(db: Queryable, email: string): Promise<boolean> {
  const rows = await db.query('select 1 from users where lower(email) = lower($1)', [email]);
  return rows.length > 0;
}

/** D28: a new account for an invited email; null when one was made for it meanwhile (unique email). */
export async function createAccount(db: Queryable, email: string, firstName: string, passwordHash: string, now: Date): Promise<number | null> {
  try {
    const [row] = await db.query<{ id: unknown }>('insert into users (email, first_name, password_hash, created_at) values ($1, $2, $3, $4) returning id', [
      email,
      firstName,
      passwordHash,
      now,
    ]);
    return num(row?.id);
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === '23505') return null;
    throw err;
  }
}

export async function addMembership(db: Queryable, orgId: number, userId: number, role: Role, now: Date): Promise<void> {
  await db.query('insert into memberships (user_id, org_id, role, created_at) values ($1, $2, $3, $4) on conflict (user_id, org_id) do nothing', [
    userId,
    orgId,
    role,
    now,
  ]);
}
