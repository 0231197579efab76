// D3: demo data on an empty database (SEED=none turns it off). All demo accounts use one password.
import { DAY_MS, HOUR_MS } from '../contract/time';
import type { ScryptCost } from './auth/passwords';
import { hashPassword } from './auth/passwords';
import type { Db, Queryable } from './db';
import { num } from './db';
import { writeAudit } from './audit';
import { demoCustomers, ELECTRICAL_NOTES, PLUMBING_NOTES, type DemoCustomer } from './seed-data';
import { seedDemoFields } from './seed-fields';
import { seedServiceDemo } from './seed-service';

export const DEMO_PASSWORD = 'demo-password'; // D3: public by design; use SEED=none in production
const SEED_LOCK_KEY = 72_410_002;

const ORGS = [
  {
    key: 'acme',
    name: 'Acme Plumbing',
    logoUrl: '/logos/acme.svg',
    customers: { seed: 11, count: 36, businesses: 5, phoneStart: 0, notes: PLUMBING_NOTES },
    servicePhones: 36, // its contacts' numbers: 555-0136..0138, after its customers'
  },
  {
    key: 'beacon',
    name: 'Beacon Electric',
    logoUrl: null,
    customers: { seed: 23, count: 30, businesses: 8, phoneStart: 50, notes: ELECTRICAL_NOTES },
    servicePhones: 80, // 555-0180..0182
  },
] as const;
type OrgKey = (typeof ORGS)[number]['key'];

// D3 table. No favorites: owner@demo.test has two organizations and so sees the picker.
export const DEMO_USERS: readonly { email: string; firstName: string; memberships: readonly [OrgKey, string][]; assigned?: number }[] = [
  {
    email: 'owner@demo.test',
    firstName: 'Olivia',
    memberships: [
      ['acme', 'owner'],
      ['beacon', 'admin'],
    ],
  },
  { email: 'solo@demo.test', firstName: 'Sam', memberships: [['acme', 'member']] },
  { email: 'viewer@demo.test', firstName: 'Vera', memberships: [['beacon', 'viewer']] },
  { email: 'nobody@demo.test', firstName: 'Noah', memberships: [] },
  // D3: every organization has an owner, as a real one always does (last, so the others keep their ids).
  { email: 'beacon@demo.test', firstName: 'Bea', memberships: [['beacon', 'owner']] },
  // D59: a technician of Beacon, whose member role sees only the customers assigned to them: a handful.
  { email: 'tech@demo.test', firstName: 'Theo', memberships: [['beacon', 'member']], assigned: 5 },
];
/** D59: the roles that see only their own customers, per organization. */
const ASSIGNED_ONLY: readonly [OrgKey, string][] = [['beacon', 'member']];

async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.query<{ used: boolean }>('select (exists (select 1 from users) or exists (select 1 from organizations)) as used');
  return !row?.used;
}

/** Seeds the demo data when the database has no users and no organizations; true when it did. */
export async function seedDemo(db: Db, cost: ScryptCost, nowMs: number): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  // Hash outside the transaction (scrypt is slow); each account gets its own salt. One at a time: the
  // D35 queue would give up on a waiting turn after its 5 s on a busy machine, and a start must not fail.
  const hashes: string[] = [];
  for (const _ of DEMO_USERS) hashes.push(await hashPassword(DEMO_PASSWORD, cost));
  // D34: start-up's bulk work, as the migrations are: hundreds of statements on a busy machine must not
  // fail a start by meeting an ordinary request's 5 s limit.
  return db.transaction((tx) => seedInTransaction(tx, hashes, nowMs), { statementTimeoutMs: 0 });
}

async function seedInTransaction(tx: Queryable, hashes: string[], nowMs: number): Promise<boolean> {
  await tx.query('select pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
  const [row] = await tx.query<{ used: boolean }>('select (exists (select 1 from users) or exists (select 1 from organizations)) as used');
  if (row?.used) return false; // another instance seeded meanwhile

  const orgIds = new Map<OrgKey, number>();
  for (const org of ORGS) {
    const [created] = await tx.query<{ id: unknown }>('insert into organizations (name, logo_url) values ($1, $2) returning id', [org.name, org.logoUrl]);
    orgIds.set(org.key, num(created?.id));
  }
  // Who works where: the people who wrote each organization's customers and notes (not its viewers).
  const writers = new Map<OrgKey, { id: number; name: string }[]>();
  const assignees: { org: OrgKey; userId: number; count: number }[] = [];
  for (const [i, user] of DEMO_USERS.entries()) {
    const [created] = await tx.query<{ id: unknown }>('insert into users (email, first_name, password_hash) values ($1, $2, $3) returning id', [
      user.email,
      user.firstName,
      hashes[i] ?? '',
    ]);
    for (const [org, role] of user.memberships) {
      await tx.query('insert into memberships (user_id, org_id, role) values ($1, $2, $3)', [num(created?.id), orgIds.get(org) ?? 0, role]);
      // A technician with assigned customers writes none of the history (the others' demo stays as it was).
      if (role !== 'viewer' && !user.assigned) writers.set(org, [...(writers.get(org) ?? []), { id: num(created?.id), name: user.firstName }]);
      if (user.assigned) assignees.push({ org, userId: num(created?.id), count: user.assigned });
    }
  }
  for (const org of ORGS) {
    const { seed, count, businesses, phoneStart, notes } = org.customers;
    const [orgId, people] = [orgIds.get(org.key) ?? 0, writers.get(org.key) ?? []];
    const customers = demoCustomers(seed, count, businesses, phoneStart, notes);
    const ids = await seedCustomers(tx, orgId, people, customers, nowMs);
    await seedServiceDemo(
      tx,
      orgId,
      people,
      customers.map((c, i) => ({ ...c, id: ids[i] ?? 0 })),
      org.servicePhones,
      nowMs,
    ); // D46–D49
    await seedDemoFields(tx, org.key, orgId, people[0] ?? null, ids, nowMs); // D56
    // D59: every fourth customer from the first, up to the technician's handful, assigned to them.
    for (const a of assignees.filter((x) => x.org === org.key)) {
      const handful = ids.filter((_, n) => n % 4 === 0).slice(0, a.count);
      await tx.query('update customers set assigned_to = $2 where org_id = $1 and id = any($3::int[])', [orgId, a.userId, `{${handful.join(',')}}`]);
    }
  }
  for (const [org, role] of ASSIGNED_ONLY) await tx.query("insert into role_scopes (org_id, role, sees) values ($1, $2, 'assigned')", [orgIds.get(org) ?? 0, role]);
  return true;
}

/**
 * D3 D22 D24: one organization's customers with the history a real one would have: who added each
 * and when (an audit entry), a later change for some (lead → active, with its own entry), and notes.
 */
async function seedCustomers(tx: Queryable, orgId: number, writers: { id: number; name: string }[], customers: DemoCustomer[], nowMs: number): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, c] of customers.entries()) {
    const creator = writers[i % Math.max(1, writers.length)] ?? null;
    const changer = writers[(i + 1) % Math.max(1, writers.length)] ?? creator;
    const createdAt = new Date(nowMs - c.ageDays * DAY_MS - (i % 9) * HOUR_MS);
    const changed = c.changedDays < c.ageDays && c.status === 'active';
    const updatedAt = changed ? new Date(nowMs - c.changedDays * DAY_MS) : createdAt;
    const [row] = await tx.query<{ id: unknown }>(
      `insert into customers (org_id, name, company, email, phone, address_line, city, region, postal_code, country, status, tags,
                              created_at, created_by, updated_at, updated_by, version)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, string_to_array($12, '|'), $13, $14, $15, $16, $17) returning id`,
      [
        orgId,
        c.name,
        c.company,
        c.email,
        c.phone,
        c.address_line,
        c.city,
        c.region,
        c.postal_code,
        c.country,
        c.status,
        c.tags.join('|'),
        createdAt,
        creator?.id ?? null,
        updatedAt,
        (changed ? changer : creator)?.id ?? null,
        changed ? 2 : 1,
      ],
    );
    const id = num(row?.id);
    ids.push(id);
    const target = { type: 'customer', id, label: c.name };
    const { notes: _notes, ageDays: _a, changedDays: _c, ...fields } = c;
    const filled = Object.fromEntries(
      Object.entries({ ...fields, status: changed ? 'lead' : c.status }).filter(([, v]) => v !== null && !(Array.isArray(v) && !v.length)),
    );
    await writeAudit(tx, orgId, actor(creator), 'customer.created', { target, changes: filled }, createdAt);
    if (changed) await writeAudit(tx, orgId, actor(changer), 'customer.updated', { target, changes: { status: { from: 'lead', to: 'active' } } }, updatedAt);
    for (const [n, body] of c.notes.entries()) {
      const author = writers[(i + n) % Math.max(1, writers.length)] ?? null;
      const at = new Date(createdAt.getTime() + ((nowMs - createdAt.getTime()) * (n + 1)) / (c.notes.length + 1));
      const [note] = await tx.query<{ id: unknown }>(
        'insert into customer_notes (org_id, customer_id, author_id, body, created_at, updated_at) values ($1, $2, $3, $4, $5, $5) returning id',
        [orgId, id, author?.id ?? null, body, at],
      );
      await writeAudit(tx, orgId, actor(author), 'note.added', { target: { type: 'note', id: num(note?.id), label: c.name }, changes: { customer_id: id, body } }, at);
    }
  }
  return ids;
}

const actor = (who: { id: number; name: string } | null) => (who ? { id: who.id, label: who.name } : { id: null, label: 'system' });

/** Lines for the start-up banner: the demo accounts that exist in this database, with their roles. */
export async function demoAccountLines(db: Db): Promise<string[]> {
  const rows = await db.query<{ email: string; orgs: string | null }>(
    `select u.email, string_agg(o.name || ' (' || m.role || ')', ', ' order by o.name) as orgs
       from users u left join memberships m on m.user_id = u.id left join organizations o on o.id = m.org_id
      where lower(u.email) = any(string_to_array($1, ','))
      group by u.id, u.email order by u.id`,
    [DEMO_USERS.map((u) => u.email).join(',')],
  );
  return rows.map((r) => `  ${r.email.padEnd(18)} ${r.orgs ?? 'no organization'}`);
}
