// Add and Edit Customer's endpoints as the fake API answers them (FakeApi.records): create, the record by
// id with D31's version check, and D23's duplicate check, on two customers (Ann and Ben).
import { ASSIGNEES_PATH } from '../../contract/assignment';
import type { Customer, CustomerInput, PersonRef } from '../../contract/customers';
import { fold } from '../../contract/fold';
import { phoneDigits } from '../../contract/matching';
import type { FakeApi } from './fake-api';
import { json, type Call } from './fake-http';

/** D46–D48: what a customer has beyond D22's fields when none of it was given. */
export const PLAIN_EXTRAS = {
  type: 'residential',
  lead_source: null,
  do_not_service: false,
  do_not_service_reason: null,
  locations: [],
  contacts: [],
  custom: {}, // D56
  assigned_to: null, // D59
} satisfies Partial<Customer>;

export const OLIVE = { id: 1, name: 'Olive' };
export const GRACE = { id: 2, name: 'Grace' };
export const ANN: Customer = {
  id: 7,
  name: 'Ann Patel',
  company: 'Patel Bakery',
  email: 'ann@example.com',
  phone: '(503) 555-0100',
  address_line: '1 Main St',
  city: 'Portland',
  region: 'OR',
  postal_code: '97201',
  country: 'US',
  status: 'active',
  tags: ['vip'],
  ...PLAIN_EXTRAS,
  created_at: '2025-01-02T10:00:00Z',
  created_by: OLIVE,
  updated_at: '2025-01-03T10:00:00Z',
  updated_by: OLIVE,
  version: 3,
};
export const BEN: Customer = { ...ANN, id: 8, name: 'Ben Okafor', company: null, email: 'ben@example.com', phone: '503.555.0199', tags: [], version: 1 };
export const MISSING_ID = 999;

/** The customer record's endpoints as the server answers them (D22 D23 D31), with answers to give first. */
export class FakeRecords {
  rows = new Map<number, Customer>([ANN, BEN].map((c) => [c.id, structuredClone(c)]));
  /** Answers given before the normal ones, in order. */
  next: Response[] = [];
  /** An answer to every call of a method, in place of the normal one (a refusal, e.g. D41's 403). */
  byMethod = new Map<string, () => Response>();
  nextId = 50;
  /** D48: the organization's earlier lead sources, and the q of each suggestions call. */
  leadSources = ['Google', 'Yelp', 'Neighbor referral', 'Nextdoor'];
  leadSourceQueries: string[] = [];
  /** D59: the members a customer may be assigned to. */
  assignees: PersonRef[] = [OLIVE, GRACE];

  constructor(readonly api: FakeApi) {
    api.routes.set('/v1/customers/', (call) => this.answer(call, () => this.create(call.body as CustomerInput)));
    api.routes.set('/v1/customers/lead-sources/', (call) => this.sources(new URLSearchParams(call.search).get('q') ?? ''));
    api.routes.set(ASSIGNEES_PATH, () => json(200, { results: this.assignees }));
    api.routes.set('/v1/customers/duplicates/', (call) => this.answer(call, () => this.duplicates(new URLSearchParams(call.search))));
    for (const id of [ANN.id, BEN.id, MISSING_ID]) api.routes.set(`/v1/customers/${id}/`, (call) => this.answer(call, () => this.record(call, id)));
  }

  private answer(call: Call, normal: () => Response): Response {
    return this.next.shift() ?? this.byMethod.get(call.method)?.() ?? normal();
  }

  private taken(email: string | null, except: number) {
    return [...this.rows.values()].find((c) => email && c.email === email && c.id !== except);
  }

  private create(input: CustomerInput): Response {
    const holder = this.taken(input.email, 0);
    if (holder)
      return json(409, { detail: `${holder.name} already has this email`, code: 'duplicate_email', field: 'email', existing: { id: holder.id, name: holder.name } });
    const c: Customer = {
      ...PLAIN_EXTRAS,
      ...input,
      assigned_to: this.person((input as { assigned_to?: number | null }).assigned_to),
      id: this.nextId++,
      created_at: '2025-02-01T00:00:00Z',
      created_by: OLIVE,
      updated_at: '2025-02-01T00:00:00Z',
      updated_by: OLIVE,
      version: 1,
    };
    this.rows.set(c.id, c);
    return json(201, c);
  }

  private record(call: Call, id: number): Response {
    const c = this.rows.get(id);
    if (!c) return json(404, { detail: 'Not found.', code: 'not_found' });
    if (call.method === 'GET') return json(200, c);
    const { version, ...patch } = call.body as Partial<CustomerInput> & { version: number };
    if (version !== c.version) return json(409, { detail: `${c.updated_by?.name} changed this customer since you opened it`, code: 'conflict', current: c });
    const holder = this.taken(patch.email ?? null, id);
    if (holder) return json(409, { detail: 'taken', code: 'duplicate_email', field: 'email', existing: { id: holder.id, name: holder.name } });
    const assigned = 'assigned_to' in patch ? { assigned_to: this.person((patch as { assigned_to?: number | null }).assigned_to) } : {};
    const after = { ...c, ...patch, ...assigned, version: c.version + 1, updated_by: OLIVE };
    this.rows.set(id, after);
    return json(200, after);
  }

  private duplicates(q: URLSearchParams): Response {
    const email = q.get('email');
    const digits = phoneDigits(q.get('phone') ?? '');
    const name = fold(q.get('name')?.trim() ?? '');
    const exclude = Number(q.get('exclude') ?? 0);
    const byPhone = (c: Customer) => digits && phoneDigits(c.phone ?? '') === digits;
    const results = [...this.rows.values()]
      .filter((c) => c.id !== exclude && ((email && c.email === email) || byPhone(c) || (name && fold(c.name) === name)))
      .map((c) => ({ id: c.id, name: c.name, email: c.email, phone: c.phone, match: email && c.email === email ? 'email' : byPhone(c) ? 'phone' : 'name' }));
    return json(200, { results });
  }

  /** D48: the sources containing q, ignoring case. */
  private sources(q: string): Response {
    this.leadSourceQueries.push(q);
    return json(200, { results: this.leadSources.filter((s) => s.toLowerCase().includes(q.toLowerCase())) });
  }

  /** D59: an assignee's id as the record shows it. */
  private person(id: number | null | undefined): PersonRef | null {
    return this.assignees.find((p) => p.id === id) ?? null;
  }

  /** Someone else saves the customer (D31). */
  changeBehind(id: number, patch: Partial<Customer>): Customer {
    const c = { ...this.rows.get(id)!, ...patch, version: this.rows.get(id)!.version + 1, updated_by: GRACE, updated_at: '2025-03-04T14:05:00Z' };
    this.rows.set(id, c);
    return c;
  }
}
