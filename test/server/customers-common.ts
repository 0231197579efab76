// What the customers API's test files share: a signed-in person acting in one organization, customers
// made through the API, roles made for a test, and what the database holds (audit entries, and a
// fingerprint of the CRM's tables to prove that a refused call changed nothing).
import { expect } from 'vitest';
import type { Customer } from '../../contract/customers';
import type { Permission } from '../../contract/permissions';
import type { Db } from '../../server/db';
import { CUSTOMERS, expectError } from './api-common';
import type { Backend } from './backends';
import { createUser, DEMO_PASSWORD, orgId, tokens, type Reply } from './helpers';
import { newOrg } from './people';

export const ACME = 'Acme Plumbing';
export const BEACON = 'Beacon Electric';

/** /api/v1/customers/{id}/ and what follows it ('notes/', 'restore/', …). */
/** SPEC §7 D26: the keys of a customers-list item, sorted (D56 custom, D59 assigned_to); the dashboard's recently updated are the same. */
export const LIST_ITEM_KEYS = [
  'assigned_to',
  'city',
  'company',
  'created_at',
  'custom',
  'do_not_service',
  'email',
  'id',
  'name',
  'phone',
  'status',
  'tags',
  'type',
  'updated_at',
];
export const customerPath = (id: number | string, rest = '') => `${CUSTOMERS}${id}/${rest}`;

let counter = 0;
/** A value no other test uses: names and emails never collide between tests or runs. */
export const unique = (prefix = 'c') => `${prefix}${++counter}x${Math.random().toString(36).slice(2, 7)}`;
export const uniqueEmail = () => `${unique('mail')}@example.test`;
/** A phone number no other test (nor the demo data, 555-01xx) has: (2ab) 8cd-efgh. */
export const uniqueNumber = () => {
  const d = () => Math.floor(Math.random() * 10);
  return `(2${d()}${d()}) 8${d()}${d()}-${d()}${d()}${d()}${d()}`;
};

/** A person signed in and acting in one organization (Authorization and X-Organization-ID on every call). */
export interface Actor {
  token: string;
  org: number;
  userId: number;
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  get(path: string): Promise<Reply>;
  /** POST with a JSON body; without one, no body at all (restore takes none). */
  post(path: string, body?: unknown): Promise<Reply>;
  patch(path: string, body: unknown): Promise<Reply>;
  del(path: string): Promise<Reply>;
  /** POST /v1/customers/ with a unique name and email unless given; fails the test unless 201. */
  create(fields?: Record<string, unknown>): Promise<Customer>;
}

export async function signIn(b: Backend, email: string, orgName: string, password = DEMO_PASSWORD): Promise<Actor> {
  const token = tokens(await b.api.login(email, password)).access_token;
  const org = await orgId(b.server.db, orgName);
  const [user] = await b.server.db.query<{ id: unknown }>('select id from users where email = $1', [email]);
  return actor(b, token, org, Number(user?.id));
}

/**
 * Waits until a freshly started server answers a login (a cold database on a busy machine may first
 * say 503 server_busy, as D2 wants), so the first test measures the API rather than the start-up.
 */
export async function warmUp(b: Backend): Promise<void> {
  // However long a busy machine takes: the hook's timeout is the only bound.
  while ((await b.api.login('owner@demo.test')).status === 503) await new Promise((resolve) => setTimeout(resolve, 250));
}

/** A file's backend once its server answers logins (warmUp): `beforeAll(async () => (b = await warmedUp(backend)))`. */
export async function warmedUp(backend: () => Backend): Promise<Backend> {
  const b = backend();
  await warmUp(b);
  return b;
}

/** The same person's token in another organization's header (one they may or may not belong to). */
export const inOrg = (b: Backend, who: Actor, org: number): Actor => actor(b, who.token, org, who.userId);

function actor(b: Backend, token: string, org: number, userId: number): Actor {
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    b.api.request(path, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        'X-Organization-ID': String(org),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const self: Actor = {
    token,
    org,
    userId,
    send,
    get: (path) => send('GET', path),
    post: (path, body) => send('POST', path, body),
    patch: (path, body) => send('PATCH', path, body),
    del: (path) => send('DELETE', path),
    async create(fields = {}) {
      const r = await send('POST', CUSTOMERS, { name: unique('Customer '), email: uniqueEmail(), ...fields });
      expect(r.status, r.text).toBe(201);
      return r.body as unknown as Customer;
    },
  };
  return self;
}

/** D46 D47: a customer's locations or contacts through the API: their paths, and one added (the test fails unless 201). */
export function partsOf<T>(plural: 'locations' | 'contacts') {
  const all = (customerId: number) => customerPath(customerId, `${plural}/`);
  return {
    all,
    one: (customerId: number, id: number) => customerPath(customerId, `${plural}/${id}/`),
    async add(who: Actor, customerId: number, body: Record<string, unknown>): Promise<T> {
      const r = await who.post(all(customerId), body);
      expect(r.status, r.text).toBe(201);
      return r.body as unknown as T;
    },
  };
}

/** A new user with `role` in the organization, signed in there. */
export async function newActor(b: Backend, orgName: string, role: string): Promise<Actor> {
  const user = await createUser(b.server.db, { memberships: [[orgName, role]] });
  return signIn(b, user.email, orgName, user.password);
}

/** The owner of a new organization of the test's own, so what they count is this test's alone. */
export async function ownerOfNewOrg(b: Backend, prefix = 'Org'): Promise<Actor> {
  return newActor(b, (await newOrg(b.server.db, prefix)).name, 'owner');
}

/** A role of the test's own in one organization, granting exactly `permissions`. */
export async function customRole(db: Db, orgName: string, permissions: Permission[]): Promise<string> {
  const role = unique('role-');
  await db.query('insert into roles (name) values ($1)', [role]);
  for (const permission of permissions) {
    await db.query('insert into role_permissions (org_id, role, permission) select id, $2, $3 from organizations where name = $1', [orgName, role, permission]);
  }
  return role;
}

export type AuditRow = {
  id: number;
  org_id: number;
  actor_id: number | null;
  actor_label: string;
  action: string;
  target_type: string;
  target_id: number | null;
  target_label: string;
  changes: Record<string, unknown>;
  at: Date;
};

const auditRows = async (db: Db, where: string, params: (string | number)[]): Promise<AuditRow[]> =>
  (
    await db.query<Record<string, unknown> & Omit<AuditRow, 'id' | 'org_id' | 'actor_id' | 'target_id'>>(`select * from audit_log where ${where} order by id`, params)
  ).map((r) => ({
    ...r,
    id: Number(r.id),
    org_id: Number(r.org_id),
    actor_id: r.actor_id === null ? null : Number(r.actor_id),
    target_id: r.target_id === null ? null : Number(r.target_id),
    changes: typeof r.changes === 'string' ? (JSON.parse(r.changes) as Record<string, unknown>) : r.changes,
  }));

/** The audit entries about one target, oldest first. */
export const auditAbout = (db: Db, type: string, id: number) => auditRows(db, 'target_type = $1 and target_id = $2', [type, id]);
/** The entries written after entry `afterId` (see lastAuditId), oldest first. */
export const auditSince = (db: Db, afterId: number) => auditRows(db, 'id > $1', [afterId]);
export async function lastAuditId(db: Db): Promise<number> {
  const [row] = await db.query<{ id: unknown }>('select coalesce(max(id), 0) as id from audit_log');
  return Number(row?.id);
}

/** One string that changes whenever any customer, note or audit entry of any organization does. */
export async function fingerprint(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const table of ['customers', 'customer_notes', 'audit_log', 'customer_counts', 'customer_locations', 'customer_contacts']) {
    const [row] = await db.query<{ h: string | null; n: unknown }>(`select md5(string_agg(t::text, '|' order by t::text)) as h, count(*) as n from ${table} t`);
    parts.push(`${table}:${String(row?.n)}:${row?.h ?? ''}`);
  }
  return parts.join(' ');
}

/** Runs `fn` and fails unless every customer, note, audit entry and count is as it was. */
export async function expectNoChange(db: Db, fn: () => Promise<void>): Promise<void> {
  const before = await fingerprint(db);
  await fn();
  expect(await fingerprint(db), 'the database changed').toBe(before);
}

/** D19 D22: a 400 that names the field (and has the code, when given). */
export function expectFieldError(r: Reply, field: string, code?: string): void {
  expectError(r, 400, code);
  expect(r.body.field, r.text.slice(0, 200)).toBe(field);
}

/** D19: a refusal a client caused (4xx) with the JSON error shape; never a 500. */
export function expectClientError(r: Reply, what: string): void {
  expect(r.status, `${what}: ${r.status} ${r.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(r.status, `${what}: ${r.status} ${r.text.slice(0, 300)}`).toBeLessThan(500);
  expect(typeof r.body.detail, what).toBe('string');
  expect(typeof r.body.code, what).toBe('string');
}

/** Whether a hostile value is in fact a fine one for the field (an absent optional field, plain text, plain tags). */
export function acceptable(field: string, value: unknown): boolean {
  const plain = (v: unknown) => typeof v === 'string' && v.trim() !== '' && !/[\u0000-\u001f\u007f]/.test(v);
  if (value === null) return field !== 'name';
  if (field === 'tags') return Array.isArray(value) && value.every((t) => plain(t) && String(t).length <= 30);
  return plain(value) && ['name', 'city'].includes(field) && String(value).length <= 200;
}

/** Bodies no client should send, for "never a 500" checks: wrong types, nesting, huge and control text. */
export const HOSTILE_VALUES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e308,
  true,
  [],
  ['x'],
  {},
  { $gt: '' },
  { name: 'x' },
  [[[[['deep']]]]],
  'x'.repeat(100_000),
  '\u0000',
  '\u0000\u0001\u001f\u007f',
  'a\r\nb',
  '<script>alert(1)</script>',
  "'; drop table customers; --",
  '%s%n',
  '\u202e',
];

/** Text JSON can carry but Unicode cannot: lone surrogates, which no database column or jsonb can hold. */
export const LONE_SURROGATES = ['\ud800', 'a\udfffb', 'end\udbff'];

/**
 * D19 D22: text that is not Unicode must never earn a 500: either a 400 naming the field, or stored as
 * well-formed text (a replacement character). Returns what went wrong, or null.
 */
export function surrogateProblem(r: Reply, field: string, what: string): string | null {
  if (r.status === 400) return r.body.field === field ? null : `${what}: a 400 naming ${String(r.body.field)}, not ${field}`;
  if (r.status >= 300) return `${what}: ${r.status} ${r.text.slice(0, 120)}`;
  return /\\ud[89a-f]/i.test(r.text) ? `${what}: answered with a lone surrogate` : null;
}

/** Raw request bodies that are not a JSON object, or are one with hostile keys. */
export const HOSTILE_RAW_BODIES: string[] = [
  '',
  ' ',
  'null',
  '[]',
  '"text"',
  '42',
  '{',
  '{"name":',
  '{"name":"a",}',
  `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
  '{"__proto__":{"admin":true},"name":"x"}',
  '{"constructor":{"prototype":{"x":1}},"name":"x"}',
  '\uFEFF{"name":"x"}',
  '{"name":"a","name":"b","x":1}',
];
