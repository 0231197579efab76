// D3 D46–D49 demo data for a service business's customers, laid over the demo customers (seed.ts):
// types and lead sources, a landlord with rentals and a property manager, a commercial customer whose
// billing address is not where the work is, one customer not to be served, and a pair of duplicates
// ready to merge. Deterministic: picked by name and position, never by chance. Phones stay in 555-01xx.
import { DAY_MS, HOUR_MS } from '../contract/time';
import { writeAudit, type Actor } from './audit';
import type { Queryable } from './db';
import { num } from './db';
import type { DemoCustomer } from './seed-data';

const LEAD_SOURCES = ['Google', 'Referral', 'Yelp', 'Nextdoor', 'Truck sign', 'Website form', null] as const;

interface Writer {
  id: number;
  name: string;
}
type Seeded = DemoCustomer & { id: number };

const actor = (who: Writer | null): Actor => (who ? { id: who.id, label: who.name } : { id: null, label: 'system' });

async function addLocation(tx: Queryable, orgId: number, c: Seeded, who: Writer | null, at: Date, l: Record<string, string | boolean | null>): Promise<void> {
  const [row] = await tx.query<{ id: unknown }>(
    `insert into customer_locations (org_id, customer_id, label, address_line, city, region, postal_code, country, access_notes, is_primary, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, 'US', $8, $9, $10, $10) returning id`,
    [orgId, c.id, l.label ?? null, l.address_line ?? null, l.city ?? null, l.region ?? 'OR', l.postal_code ?? null, l.access_notes ?? null, l.primary === true, at],
  );
  const changes = { location_id: num(row?.id), location: l.label, ...Object.fromEntries(Object.entries(l).filter(([, v]) => v !== null && v !== false)) };
  await writeAudit(tx, orgId, actor(who), 'location.added', { target: { type: 'customer', id: c.id, label: c.name }, changes }, at);
}

async function addContact(tx: Queryable, orgId: number, c: Seeded, who: Writer | null, at: Date, p: Record<string, string | null>): Promise<void> {
  const [row] = await tx.query<{ id: unknown }>(
    `insert into customer_contacts (org_id, customer_id, name, role, email, phone, note, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $8) returning id`,
    [orgId, c.id, p.name ?? '', p.role ?? null, p.email ?? null, p.phone ?? null, p.note ?? null, at],
  );
  const changes = { contact_id: num(row?.id), contact: p.name, ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== null)) };
  await writeAudit(tx, orgId, actor(who), 'contact.added', { target: { type: 'customer', id: c.id, label: c.name }, changes }, at);
}

/** D48 D46 D47 D49: one organization's service demo; `phoneStart` is the first of 3 555-01xx numbers of its own. */
export async function seedServiceDemo(tx: Queryable, orgId: number, writers: Writer[], customers: Seeded[], phoneStart: number, nowMs: number): Promise<void> {
  const who = writers[0] ?? null;
  const phone = (n: number) => `(503) 555-01${String((phoneStart + n) % 100).padStart(2, '0')}`;
  const recently = (days: number) => new Date(nowMs - days * DAY_MS - 3 * HOUR_MS);
  // D48: businesses are commercial; most customers say how they found the business.
  await tx.query(`update customers set type = 'commercial' where org_id = $1 and 'commercial' = any(tags)`, [orgId]);
  for (const [i, c] of customers.entries()) {
    const source = LEAD_SOURCES[i % LEAD_SOURCES.length] ?? null;
    if (source) await tx.query('update customers set lead_source = $3 where org_id = $1 and id = $2', [orgId, c.id, source]);
  }
  const households = customers.filter((c) => !c.tags.includes('commercial'));
  // D46 D47: a landlord with rentals, a tenant and the property manager who calls about them.
  const landlord = households.find((c) => c.tags.includes('landlord')) ?? households[0];
  if (landlord) {
    await addLocation(tx, orgId, landlord, who, recently(60), {
      label: 'Home',
      address_line: landlord.address_line,
      city: landlord.city,
      postal_code: landlord.postal_code,
      primary: true,
    });
    await addLocation(tx, orgId, landlord, who, recently(45), {
      label: 'Rental on Oak St',
      address_line: '2210 Oak St',
      city: 'Tigard',
      postal_code: '97223',
      access_notes: 'Lockbox on the back door: code 4471. Tenant works nights; call before 10 am.',
    });
    await addLocation(tx, orgId, landlord, who, recently(30), {
      label: 'Duplex on Division St',
      address_line: '5318 SE Division St',
      city: 'Portland',
      postal_code: '97206',
      access_notes: 'Shut-off valve in the crawl space, hatch in the hall closet.',
    });
    await addLocation(tx, orgId, landlord, who, recently(12), { label: 'Rental on Juniper Ct', address_line: '77 Juniper Ct', city: 'Milwaukie', postal_code: '97222' });
    await addContact(tx, orgId, landlord, who, recently(44), {
      name: 'Morgan Ellis',
      role: 'property manager',
      email: 'morgan@riversidepm.example',
      phone: phone(0),
      note: 'Approves work up to $500 without the owner.',
    });
    await addContact(tx, orgId, landlord, who, recently(20), { name: 'Priya Shah', role: 'tenant', phone: phone(1), note: 'Tenant at the Oak St rental.' });
  }
  // D46: a commercial customer billed at its head office, served at its clinic across town.
  const clinic = customers.find((c) => c.name === 'Harbor View Dental') ?? customers[0];
  if (clinic) {
    await addLocation(tx, orgId, clinic, who, recently(90), {
      label: 'Clinic',
      address_line: '1450 NE Broadway',
      city: 'Portland',
      postal_code: '97232',
      access_notes: 'Service entrance off the alley; ask for the office manager.',
      primary: true,
    });
    await addContact(tx, orgId, clinic, who, recently(90), {
      name: 'Dana Brooks',
      role: 'billing',
      email: 'billing@harborviewdental.example',
      phone: phone(2),
      note: 'Invoices to the head office, net 30.',
    });
  }
  // D48: one customer not to be served, and why.
  const unpaid = households.find((c) => c.status === 'inactive' && c !== landlord);
  if (unpaid)
    await tx.query('update customers set do_not_service = true, do_not_service_reason = $3 where org_id = $1 and id = $2', [
      orgId,
      unpaid.id,
      'Two invoices unpaid since last winter; the office must approve any booking.',
    ]);
  // D23 D49: the same person entered twice: the same phone, the name mistyped, a lead from the website.
  const original = households.find((c) => c.status === 'active' && c !== landlord && c !== unpaid);
  if (original) {
    const [first = '', last = ''] = original.name.split(' ');
    const name = `${first} ${last.slice(0, -2)}${last.slice(-1)}${last.slice(-2, -1)}`; // two letters swapped
    const at = recently(2);
    const email = `${first.toLowerCase()}.${last.toLowerCase()}.home@mail.example`;
    const [row] = await tx.query<{ id: unknown }>(
      `insert into customers (org_id, name, email, phone, city, region, country, status, lead_source, created_at, created_by, updated_at, updated_by)
       values ($1, $2, $3, $4, $5, $6, 'US', 'lead', 'Website form', $7, $8, $7, $8) returning id`,
      [orgId, name, email, original.phone, original.city, original.region, at, who?.id ?? null],
    );
    const changes = { name, email, phone: original.phone, city: original.city, region: original.region, country: 'US', status: 'lead', lead_source: 'Website form' };
    await writeAudit(tx, orgId, actor(who), 'customer.created', { target: { type: 'customer', id: num(row?.id), label: name }, changes }, at);
  }
}
