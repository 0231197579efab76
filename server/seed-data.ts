// D3 demo customers: realistic but fictitious. Emails use reserved example domains (RFC 2606) and
// phones the 555-01xx range set aside for fiction, so nothing here reaches a real person.

export interface DemoCustomer {
  name: string;
  email: string;
  phone: string;
  address: string;
  /** Days before seeding that the customer was added. */
  ageDays: number;
}

const FIRST = [
  'Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Mateo', 'Sophia', 'Lucas', 'Isabella', 'Ethan', 'Mia', 'James',
  'Amelia', 'Benjamin', 'Harper', 'Elijah', 'Evelyn', 'Daniel', 'Abigail', 'Henry', 'Priya', 'Wei', 'Fatima',
  'Diego', 'Grace', 'Samuel', 'Chloe', 'Omar', 'Hannah', 'Kenji',
];
const LAST = [
  'Johnson', 'Martinez', 'Nguyen', 'Patel', 'Okafor', 'Kowalski', 'Schmidt', 'Rossi', 'Brennan', 'Hughes',
  'Lindqvist', 'Tanaka', 'Garcia', 'Walker', 'Carter', 'Murphy', 'Reyes', 'Foster', 'Bennett', 'Sullivan',
  'Chen', 'Hoffman', 'Delgado', 'Fischer', 'Price', 'Morales', 'Ward', 'Kim', 'Bailey', 'Novak',
];
const STREETS = [
  'Maple Ave', 'Oak St', 'Cedar Ln', 'Willow Dr', 'Elm St', 'Birch Rd', 'Hawthorne Blvd', 'Lakeview Ter',
  'Juniper Ct', 'Division St', 'Alder St', 'Sunset Blvd', 'Riverside Dr', 'Chestnut Way', 'Harbor Rd', 'Spruce Pl',
];
const TOWNS = [
  ['Portland', 'OR', '97214'], ['Beaverton', 'OR', '97005'], ['Lake Oswego', 'OR', '97034'], ['Tigard', 'OR', '97223'],
  ['Gresham', 'OR', '97030'], ['Hillsboro', 'OR', '97124'], ['Vancouver', 'WA', '98661'], ['Milwaukie', 'OR', '97222'],
] as const;
const MAIL_DOMAINS = ['example.com', 'example.net', 'example.org', 'mail.example'];
const BUSINESSES = [
  'Harbor View Dental', 'Rose City Bakery', 'Northwest Print Co.', 'Cascade Veterinary Clinic', 'Summit Yoga Studio',
  'Pearl District Lofts HOA', 'Bridgetown Brewing', 'Willamette Family Practice', 'Greenleaf Grocers', 'Ironwood Fitness',
  'Columbia Self Storage', 'Laurelhurst Montessori',
];

/** Small deterministic PRNG (mulberry32), so every fresh database gets the same demo data. */
function random(seed: number): () => number {
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

/** `count` customers, `businesses` of them companies; `phoneStart` keeps numbers unique across orgs. */
export function demoCustomers(seed: number, count: number, businesses: number, phoneStart: number): DemoCustomer[] {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  const used = new Set<string>();
  const out: DemoCustomer[] = [];
  for (let i = 0; out.length < count; i++) {
    const isBusiness = out.length < businesses;
    const first = pick(FIRST);
    const last = pick(LAST);
    const name = isBusiness ? (BUSINESSES[(seed + out.length) % BUSINESSES.length] ?? 'Acme Corp') : `${first} ${last}`;
    if (used.has(name)) continue;
    used.add(name);
    const [town, state, zip] = pick(TOWNS);
    const email = isBusiness ? `office@${slug(name)}.example` : `${slug(first)}.${slug(last)}@${pick(MAIL_DOMAINS)}`;
    out.push({
      name,
      email,
      phone: `(503) 555-01${String((phoneStart + out.length) % 100).padStart(2, '0')}`,
      address: `${100 + Math.floor(rnd() * 9800)} ${pick(STREETS)}, ${town}, ${state} ${zip}`,
      ageDays: Math.floor(rnd() * 540),
    });
  }
  return out;
}
