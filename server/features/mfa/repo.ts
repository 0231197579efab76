// D54 two-step sign-in, the feature's own SQL (user-level): enrolment (a pending secret until a code
// confirms it, then ten recovery codes, renewable), the password a change of it asks for, and the
// organizations its audit entries go to. What login shares (codes, challenges, turning it off) is server/auth/mfa.ts.
import type { Queryable } from '../../db';
import { num } from '../../db';

/** True when the person has two-step sign-in on (the row locked for the change). */
export async function isEnabled(tx: Queryable, userId: number): Promise<boolean> {
  const rows = await tx.query('select 1 from user_mfa where user_id = $1 and enabled_at is not null for update', [userId]);
  return rows.length > 0;
}

/** A new pending secret, replacing any earlier one not yet confirmed; false when it is on already. */
export async function startEnrolment(tx: Queryable, userId: number, sealed: string, now: Date): Promise<boolean> {
  const rows = await tx.query(
    `insert into user_mfa (user_id, secret_sealed, created_at) values ($1, $2, $3)
     on conflict (user_id) do update set secret_sealed = excluded.secret_sealed, created_at = excluded.created_at, last_step = null
      where user_mfa.enabled_at is null
     returning user_id`,
    [userId, sealed, now],
  );
  return rows.length > 0;
}

/** The pending secret confirmed: on from now, with these recovery codes (hashes) replacing any others. */
export async function finishEnrolment(tx: Queryable, userId: number, codeHashes: string[], now: Date): Promise<void> {
  await tx.query('update user_mfa set enabled_at = $2 where user_id = $1', [userId, now]);
  await replaceRecoveryCodes(tx, userId, codeHashes);
}

/** D54: these recovery codes (hashes) in place of every earlier one, used or not. */
export async function replaceRecoveryCodes(tx: Queryable, userId: number, codeHashes: string[]): Promise<void> {
  await tx.query('delete from mfa_recovery_codes where user_id = $1', [userId]);
  await tx.query('insert into mfa_recovery_codes (user_id, code_hash) select $1, h from jsonb_array_elements_text($2::text::jsonb) h', [
    userId,
    JSON.stringify(codeHashes),
  ]);
}

/** The person's password hash (to turn two-step sign-in off). */
export async function passwordHashOf(db: Queryable, userId: number): Promise<string | null> {
  const [row] = await db.query<{ password_hash: string }>('select password_hash from users where id = $1', [userId]);
  return row?.password_hash ?? null;
}

/** The organizations the person belongs to: where their account's entries are written (docs/behaviour.md). */
export async function organizationsOf(tx: Queryable, userId: number): Promise<number[]> {
  const rows = await tx.query<{ org_id: unknown }>('select org_id from memberships where user_id = $1 order by org_id', [userId]);
  return rows.map((r) => num(r.org_id));
}
