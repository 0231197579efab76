// D59: what a caller sees of customers, decided in one place. A role of the organization sees every
// customer ('all', the default) or only those assigned to the person ('assigned'); the owner sees all.
// The caller's scope is read with their role on every request (auth/access.ts) and again inside a
// change's transaction (D38), so a customer reassigned away or a role narrowed applies at once.
//
// Every customer query takes the scope instead of the organization's id alone:
// - a route under /v1/customers/:id/ never reaches its handler for a customer outside the scope: the
//   router answers 404 as for another organization's customer (router.ts, `assertSeen`);
// - a query over many customers (the list, search, counts, export, the dashboard, bulk, merge, import's
//   duplicates, suggestions) adds `seen(alias, scope)` to its where clause.
import type { OrgCaller } from './auth/access';
import type { Queryable } from './db';
import { fieldError, HttpError } from './http';

export interface CustomerScope {
  readonly orgId: number;
  /** The user whose assigned customers are all the caller sees, or null: every customer of the organization. */
  readonly assignedTo: number | null;
}

export const scopeOf = (caller: OrgCaller): CustomerScope => ({ orgId: caller.org.id, assignedTo: caller.org.seesOnlyAssigned ? caller.userId : null });

/** Every customer of the organization (the owner's view, and the server's own work: purges, the ZIP export). */
export const wholeOrganization = (orgId: number): CustomerScope => ({ orgId, assignedTo: null });

/**
 * The where clause's part that keeps a query to the scope: '' for every customer, else
 * ` and <alias>.assigned_to = <user id>` (an integer the database gave, written as a literal so that a
 * scoped query is a plan of its own, never a generic one that must serve both).
 */
export function seen(alias: string, scope: CustomerScope): string {
  if (scope.assignedTo === null) return '';
  if (!Number.isSafeInteger(scope.assignedTo) || scope.assignedTo < 1) throw new TypeError('a scope names a user id');
  if (!/^[a-z_]*$/.test(alias)) throw new TypeError('a scope names a table alias');
  return ` and ${alias ? `${alias}.` : ''}assigned_to = ${scope.assignedTo}`;
}

/** The same as a condition of its own ('true' for every customer), for a where clause that has nothing before it. */
export const seenWhere = (alias: string, scope: CustomerScope) => (scope.assignedTo === null ? 'true' : seen(alias, scope).slice(' and '.length));

/** D59: a customer outside the scope answers as another organization's would. */
export const notSeen = () => new HttpError(404, 'not_found', 'No such customer');

/**
 * D59: refuses (404) a customer id the scope does not cover: a customer of the organization, live or
 * deleted, assigned to someone else or to no one. An id of no customer of the organization is left to
 * the route (its own 404, or D49's 'merged into').
 */
export async function assertSeen(db: Queryable, scope: CustomerScope, customerId: number): Promise<void> {
  if (!(await mayBeSeen(db, scope, customerId))) throw notSeen();
}

/** Whether the scope covers this id: false only for a customer of the organization it does not cover. */
export async function mayBeSeen(db: Queryable, scope: CustomerScope, customerId: number): Promise<boolean> {
  if (scope.assignedTo === null) return true;
  const [row] = await db.query<{ seen: boolean }>('select assigned_to is not distinct from $3 as seen from customers where org_id = $1 and id = $2', [
    scope.orgId,
    customerId,
    scope.assignedTo,
  ]);
  return !row || row.seen;
}

/** D59: the list's `assigned` filter as the list takes it: the caller's own for 'me', nobody's for 'none', else a member's id. */
export function assignedFilter(value: string | null, caller: OrgCaller): number | 'none' | null {
  if (value === null) return null;
  if (value === 'none') return 'none';
  return value === 'me' ? caller.userId : Number(value);
}

/**
 * D59: the assignee a create or a change asks for, checked: a member of the organization, or null for
 * none. A caller who sees only their own customers creates them assigned to themselves and assigns to no
 * one else (400 naming `assigned_to`). Undefined: the request does not change it. Run in the change's
 * transaction, under the organization's shared lock that a member's removal takes alone (D38).
 */
export async function assigneeOf(db: Queryable, caller: OrgCaller, value: number | null | undefined, creating: boolean): Promise<number | null | undefined> {
  const own = caller.org.seesOnlyAssigned;
  if (value === undefined) return creating && own ? caller.userId : undefined;
  if (own && value !== caller.userId) throw fieldError('assigned_to', 'can only be you: your role sees only the customers assigned to you');
  if (value === null) return null;
  const [member] = await db.query('select 1 from memberships where org_id = $1 and user_id = $2', [caller.org.id, value]);
  if (!member) throw fieldError('assigned_to', 'is not a member of this organization');
  return value;
}

/** The customer a refusal names: D23's 409 `duplicate_email` and D56's `duplicate_custom_value` (`existing`), D49's 404 `merged` (`merged_into`). */
const NAMED: Readonly<Record<string, string>> = { duplicate_email: 'existing', duplicate_custom_value: 'existing', merged: 'merged_into' };

/**
 * D59: a refusal that names another customer names it only when the caller sees that customer: else a
 * duplicate email says 'Another customer already has this email' and a merge's survivor is a plain 404.
 * The router passes every org route's refusal through here, inside the route's transaction.
 */
export async function withoutUnseen(db: Queryable, scope: CustomerScope, err: unknown): Promise<unknown> {
  const key = err instanceof HttpError ? NAMED[err.code] : undefined;
  if (scope.assignedTo === null || !key || !(err instanceof HttpError)) return err;
  const named = err.extra[key] as { id?: unknown } | undefined;
  if (typeof named?.id !== 'number') return err;
  const [row] = await db.query(`select 1 from customers where org_id = $1 and id = $2${seen('', scope)}`, [scope.orgId, named.id]);
  if (row) return err;
  if (err.code === 'merged') return notSeen();
  const { [key]: _, ...extra } = err.extra;
  const what = err.code === 'duplicate_custom_value' ? `${String(err.extra.label)}: it must be unique` : 'email';
  return new HttpError(err.status, err.code, `Another customer already has this ${what}`, err.headers, extra);
}

/** D59: an assignee as answers and audit entries name them ({ id, name }), or null for none. */
export async function personRef(db: Queryable, userId: number | null): Promise<{ id: number; name: string } | null> {
  if (userId === null) return null;
  const [row] = await db.query<{ name: string }>('select first_name as name from users where id = $1', [userId]);
  return row ? { id: userId, name: row.name } : null;
}

/**
 * D59: whom a customer may be assigned to, by name: every member of the organization, or the caller
 * alone when their role sees only their own customers.
 */
export async function assignableMembers(db: Queryable, caller: OrgCaller): Promise<{ id: number; name: string }[]> {
  const rows = await db.query<{ id: unknown; name: string }>(
    `select u.id, u.first_name as name from memberships m join users u on u.id = m.user_id
      where m.org_id = $1 and ($2::integer is null or u.id = $2) order by lower(u.first_name), u.id`,
    [caller.org.id, caller.org.seesOnlyAssigned ? caller.userId : null],
  );
  return rows.map((r) => ({ id: Number(r.id), name: r.name }));
}

/** D59: an import's 'Assigned to' cells read as members, and members named as answers name them. */
export interface Members {
  /** A member's id by their email, or by their first name when no other member has it; else why not. */
  find(cell: string): number | string;
  ref(id: number | null): { id: number; name: string } | null;
}

export async function membersOf(db: Queryable, orgId: number): Promise<Members> {
  const rows = await db.query<{ id: unknown; email: string; name: string }>(
    'select u.id, u.email, u.first_name as name from memberships m join users u on u.id = m.user_id where m.org_id = $1',
    [orgId],
  );
  const byEmail = new Map(rows.map((r) => [r.email.toLowerCase(), Number(r.id)]));
  const byName = new Map<string, number[]>();
  for (const r of rows) byName.set(r.name.trim().toLowerCase(), [...(byName.get(r.name.trim().toLowerCase()) ?? []), Number(r.id)]);
  const names = new Map(rows.map((r) => [Number(r.id), r.name]));
  return {
    find(cell) {
      const key = cell.trim().toLowerCase();
      const named = byName.get(key) ?? [];
      const id = byEmail.get(key) ?? (named.length === 1 ? named[0] : undefined);
      if (id !== undefined) return id;
      return named.length ? 'names more than one member: give their email' : 'is not a member of this organization (give their email or first name)';
    },
    ref: (id) => (id === null ? null : { id, name: names.get(id) ?? '' }),
  };
}
