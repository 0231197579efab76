// D3: demo data on an empty database (SEED=none turns it off). All demo accounts use one password.
import type { ScryptCost } from './auth/passwords';
import { hashPassword } from './auth/passwords';
import type { Db } from './db';
import { num } from './db';
import { demoCustomers } from './seed-data';

export const DEMO_PASSWORD = 'demo-password'; // D3: public by design; use SEED=none in production
const SEED_LOCK_KEY = 72_410_002;
const DAY_MS = 24 * 3600 * 1000;

const ORGS = [
  { key: 'acme', name: 'Acme Plumbing', logoUrl: '/logos/acme.svg', customers: { seed: 11, count: 36, businesses: 5, phoneStart: 0 } },
  { key: 'beacon', name: 'Beacon Electric', logoUrl: null, customers: { seed: 23, count: 30, businesses: 8, phoneStart: 50 } },
] as const;
type OrgKey = (typeof ORGS)[number]['key'];

// D3 table. No favorites: owner@demo.test has two organizations and so sees the picker.
export const DEMO_USERS: readonly { email: string; firstName: string; memberships: readonly [OrgKey, string][] }[] = [
  { email: 'owner@demo.test', firstName: 'Olivia', memberships: [['acme', 'owner'], ['beacon', 'admin']] },
  { email: 'solo@demo.test', firstName: 'Sam', memberships: [['acme', 'member']] },
  { email: 'viewer@demo.test', firstName: 'Vera', memberships: [['beacon', 'viewer']] },
  { email: 'nobody@demo.test', firstName: 'Noah', memberships: [] },
];

async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.query<{ used: boolean }>('select (exists (select 1 from users) or exists (select 1 from organizations)) as used');
  return !row?.used;
}

/** Seeds the demo data when the database has no users and no organizations; true when it did. */
export async function seedDemo(db: Db, cost: ScryptCost, nowMs: number): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  // Hash outside the transaction (scrypt is slow); each account gets its own salt.
  const hashes = await Promise.all(DEMO_USERS.map(() => hashPassword(DEMO_PASSWORD, cost)));
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
    const [row] = await tx.query<{ used: boolean }>('select (exists (select 1 from users) or exists (select 1 from organizations)) as used');
    if (row?.used) return false; // another instance seeded meanwhile

    const orgIds = new Map<OrgKey, number>();
    for (const org of ORGS) {
      const [created] = await tx.query<{ id: unknown }>('insert into organizations (name, logo_url) values ($1, $2) returning id', [org.name, org.logoUrl]);
      const orgId = num(created?.id);
      orgIds.set(org.key, orgId);
      const { seed, count, businesses, phoneStart } = org.customers;
      const customers = demoCustomers(seed, count, businesses, phoneStart);
      const values = customers.map((_, i) => `($1, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5}, $${i * 5 + 6})`).join(', ');
      await tx.query(
        `insert into customers (org_id, name, email, phone, address_line, created_at) values ${values}`,
        [orgId, ...customers.flatMap((c) => [c.name, c.email, c.phone, c.address, new Date(nowMs - c.ageDays * DAY_MS)])],
      );
    }
    for (const [i, user] of DEMO_USERS.entries()) {
      const [created] = await tx.query<{ id: unknown }>(
        'insert into users (email, first_name, password_hash) values ($1, $2, $3) returning id',
        [user.email, user.firstName, hashes[i] ?? ''],
      );
      for (const [org, role] of user.memberships) {
        await tx.query('insert into memberships (user_id, org_id, role) values ($1, $2, $3)', [num(created?.id), orgIds.get(org) ?? 0, role]);
      }
    }
    return true;
  });
}

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
