// D3 demo customers: realistic but fictitious. Emails use reserved example domains (RFC 2606) and
// phones the 555-01xx range set aside for fiction, so nothing here reaches a real person.

import NAMES from './demo-names.json';

export interface DemoCustomer {
  name: string;
  /** Set for the person who is the contact at a business, null for households. */
  company: string | null;
  email: string;
  phone: string;
  address_line: string;
  city: string;
  region: string;
  postal_code: string;
  country: string;
  status: 'lead' | 'active' | 'inactive';
  tags: string[];
  /** Days before seeding that the customer was added, and last changed (≤ ageDays). */
  ageDays: number;
  changedDays: number;
  /** Notes a technician or the office wrote, oldest first. */
  notes: string[];
}

/** D3: the demo's first and last names; the bench scripts read the same file for their customers. */
const FIRST = NAMES.first.slice(0, 30);
const LAST = NAMES.last.slice(0, 30);
const STREETS = [
  'Maple Ave',
  'Oak St',
  'Cedar Ln',
  'Willow Dr',
  'Elm St',
  'Birch Rd',
  'Hawthorne Blvd',
  'Lakeview Ter',
  'Juniper Ct',
  'Division St',
  'Alder St',
  'Sunset Blvd',
  'Riverside Dr',
  'Chestnut Way',
  'Harbor Rd',
  'Spruce Pl',
];
const TOWNS = [
  ['Portland', 'OR', '97214'],
  ['Beaverton', 'OR', '97005'],
  ['Lake Oswego', 'OR', '97034'],
  ['Tigard', 'OR', '97223'],
  ['Gresham', 'OR', '97030'],
  ['Hillsboro', 'OR', '97124'],
  ['Vancouver', 'WA', '98661'],
  ['Milwaukie', 'OR', '97222'],
] as const;
const MAIL_DOMAINS = ['example.com', 'example.net', 'example.org', 'mail.example'];
const TAGS = ['residential', 'commercial', 'repeat', 'priority', 'maintenance plan', 'referral', 'new build', 'landlord'];
/** Mostly active customers, some leads still deciding, a few who moved on. */
const STATUSES = ['active', 'active', 'active', 'active', 'lead', 'lead', 'inactive'] as const;
/** D3: a business's demo notes fit its trade. Both lists are the same length, so the customers drawn stay the same. */
export const PLUMBING_NOTES = [
  'Prefers a call before we arrive; the side gate sticks.',
  'Quoted a water heater replacement; waiting for them to confirm.',
  'Dog in the back yard, friendly. Park on the street.',
  'Paid by card on site. Asked about a yearly maintenance plan.',
  'Leak under the kitchen sink fixed; check the shut-off valve next visit.',
  'Referred by a neighbour. Wants an estimate for the basement.',
  'Office manager is the contact for access and invoices.',
  'Rescheduled twice; confirm the day before.',
];
export const ELECTRICAL_NOTES = [
  'Breaker for the kitchen trips when the microwave and kettle run together.',
  'Quoted a panel upgrade to 200 A; waiting for them to confirm.',
  'Dog in the back yard, friendly. Park on the street.',
  'Installed GFCI outlets in both bathrooms; test them next visit.',
  'Wants an EV charger in the garage: a 240 V circuit and a permit.',
  'Knob-and-tube wiring in the attic; recommended a rewire estimate.',
  'Office manager is the contact for access and invoices.',
  'Flickering hallway lights fixed: loose neutral at the switch.',
];
const BUSINESSES = [
  'Harbor View Dental',
  'Rose City Bakery',
  'Northwest Print Co.',
  'Cascade Veterinary Clinic',
  'Summit Yoga Studio',
  'Pearl District Lofts HOA',
  'Bridgetown Brewing',
  'Willamette Family Practice',
  'Greenleaf Grocers',
  'Ironwood Fitness',
  'Columbia Self Storage',
  'Laurelhurst Montessori',
];

/** Small deterministic PRNG (mulberry32), so every fresh database gets the same demo data. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** `count` customers, `businesses` of them companies; `phoneStart` keeps numbers unique across orgs; `notes` fit the trade. */
export function demoCustomers(seed: number, count: number, businesses: number, phoneStart: number, notes: readonly string[] = PLUMBING_NOTES): DemoCustomer[] {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  const used = new Set<string>();
  const out: DemoCustomer[] = [];
  while (out.length < count) {
    const isBusiness = out.length < businesses;
    const first = pick(FIRST);
    const last = pick(LAST);
    const name = isBusiness ? (BUSINESSES[(seed + out.length) % BUSINESSES.length] ?? 'Acme Corp') : `${first} ${last}`;
    if (used.has(name)) continue;
    used.add(name);
    const [town, state, zip] = pick(TOWNS);
    const email = isBusiness ? `office@${slug(name)}.example` : `${slug(first)}.${slug(last)}@${pick(MAIL_DOMAINS)}`;
    const ageDays = out.length < 3 ? out.length * 2 : Math.floor(rnd() * 540); // a few new this week (D32)
    const tags = TAGS.filter(() => rnd() < 0.18).slice(0, 3);
    out.push({
      name,
      company: isBusiness ? null : rnd() < 0.15 ? (BUSINESSES[Math.floor(rnd() * BUSINESSES.length)] ?? null) : null,
      email,
      phone: `(503) 555-01${String((phoneStart + out.length) % 100).padStart(2, '0')}`,
      address_line: `${100 + Math.floor(rnd() * 9800)} ${pick(STREETS)}`,
      city: town,
      region: state,
      postal_code: zip,
      country: 'US',
      status: pick(STATUSES),
      tags: isBusiness ? ['commercial', ...tags.filter((t) => t !== 'commercial' && t !== 'residential')].slice(0, 3) : tags,
      ageDays,
      changedDays: Math.floor(rnd() * (ageDays + 1)),
      notes: notes.filter(() => rnd() < 0.2).slice(0, 3),
    });
  }
  return out;
}
