// D46 D47: a customer's locations and contacts on the fake record (fake-customer.ts), answering as the
// server does (server/features/customers/parts-routes.ts): the limits (409 too_many_*), one primary
// location, a location with nothing to find it by refused (400 on address_line), customers:update for
// changes, and each change a timeline entry naming the part. Failures are programmed per
// "METHOD locations" (or "METHOD contacts") and used in order: a status, a body, or 'network'.
import type { AuditAction } from '../../contract/audit';
import { MAX_CONTACTS, MAX_LOCATIONS, type CustomerContact, type CustomerLocation } from '../../contract/customer-parts';
import type { FakeApi } from './fake-api';
import { at, audit, type FakeRecord } from './fake-customer';
import { json, type Call } from './fake-http';

export function location(id: number, over: Partial<CustomerLocation> = {}): CustomerLocation {
  return {
    id,
    label: `Location ${id}`,
    address_line: `${id} Oak St`,
    city: 'Tigard',
    region: 'OR',
    postal_code: '97223',
    country: 'USA',
    access_notes: null,
    primary: false,
    created_at: at(id),
    updated_at: at(id),
    ...over,
  };
}

export function contact(id: number, over: Partial<CustomerContact> = {}): CustomerContact {
  return { id, name: `Contact ${id}`, role: null, email: null, phone: null, note: null, created_at: at(id), updated_at: at(id), ...over };
}

type Plural = 'locations' | 'contacts';
type Part = CustomerLocation | CustomerContact;
type Failure = number | { status: number; body: unknown } | 'network';

const nameOf = (plural: Plural, p: Part): string =>
  plural === 'contacts'
    ? (p as CustomerContact).name
    : ((p as CustomerLocation).label ?? ([(p as CustomerLocation).address_line, (p as CustomerLocation).city].filter(Boolean).join(', ') || 'a location'));

export class FakeParts {
  failures = new Map<string, Failure[]>();
  private nextId = 900;

  constructor(
    private api: FakeApi,
    private record: FakeRecord,
  ) {
    for (const plural of ['locations', 'contacts'] as const) {
      this.route(plural, `${this.base(plural)}`, (call) => this.add(plural, call));
      for (const p of this.list(plural)) this.partRoute(plural, p.id);
    }
  }

  private base = (plural: Plural) => `/v1/customers/${this.record.customer!.id}/${plural}/`;
  list(plural: 'locations'): CustomerLocation[];
  list(plural: 'contacts'): CustomerContact[];
  list(plural: Plural): Part[];
  list(plural: Plural): Part[] {
    return this.record.customer![plural];
  }
  private setList(plural: Plural, parts: Part[]) {
    this.record.customer = { ...this.record.customer!, [plural]: parts };
  }

  /** The calls made to a part's path ('locations', 'locations/5'), optionally of one method. */
  calls(path: string, method?: string): Call[] {
    return this.record.calls(`/v1/customers/${this.record.customer!.id}/${path}/`, method);
  }

  private route(plural: Plural, path: string, handler: (call: Call) => Response) {
    this.api.routes.set(path, (call) => {
      const failure = this.failures.get(`${call.method} ${plural}`)?.shift();
      if (failure === 'network') throw new TypeError('Failed to fetch');
      if (typeof failure === 'number') return json(failure, { detail: 'Something went wrong.', code: 'error' });
      if (failure) return json(failure.status, failure.body);
      if (call.method !== 'GET' && !this.record.permissions.has('customers:update'))
        return json(403, { detail: 'You need customers:update.', code: 'permission_denied' });
      return handler(call);
    });
  }

  private partRoute(plural: Plural, id: number) {
    this.route(plural, `${this.base(plural)}${id}/`, (call) => (call.method === 'DELETE' ? this.remove(plural, id) : this.update(plural, id, call)));
  }

  private entry(plural: Plural, verb: 'added' | 'updated' | 'removed', part: Part, changes: Record<string, unknown>) {
    const noun = plural === 'locations' ? 'location' : 'contact';
    const action = `${noun}.${verb}` as AuditAction;
    this.record.items.unshift(audit(this.nextId++, action, this.record.me, 24 * 60, { [`${noun}_id`]: part.id, [noun]: nameOf(plural, part), ...changes }));
  }

  private add(plural: Plural, call: Call): Response {
    if (call.method === 'GET') return json(200, { count: this.list(plural).length, results: this.list(plural) });
    const input = call.body as Record<string, unknown>;
    const max = plural === 'locations' ? MAX_LOCATIONS : MAX_CONTACTS;
    if (this.list(plural).length >= max)
      return json(409, { detail: `A customer has at most ${max} ${plural}: remove one to add another`, code: `too_many_${plural}`, limit: max });
    const id = this.nextId++;
    const part = plural === 'locations' ? location(id, { ...input, primary: Boolean(input.primary) || this.list('locations').length === 0 }) : contact(id, input);
    this.setList(plural, [...this.list(plural), part]);
    this.partRoute(plural, id);
    this.entry(plural, 'added', part, {});
    return json(201, part);
  }

  private update(plural: Plural, id: number, call: Call): Response {
    const before = this.list(plural).find((p) => p.id === id);
    if (!before) return json(404, { detail: `No such ${plural.slice(0, -1)}`, code: 'not_found' });
    const patch = call.body as Record<string, unknown>;
    const after = { ...before, ...patch, updated_at: at(24 * 60) } as Part;
    const changes = Object.fromEntries(
      Object.entries(patch).flatMap(([f, to]) =>
        (before as unknown as Record<string, unknown>)[f] === to ? [] : [[f, { from: (before as unknown as Record<string, unknown>)[f], to }]],
      ),
    );
    let parts = this.list(plural).map((p) => (p.id === id ? after : p));
    // One primary: making one primary un-primaries the other, and the primary is listed first.
    if (plural === 'locations' && patch.primary === true)
      parts = (parts as CustomerLocation[]).map((l) => (l.id === id ? l : { ...l, primary: false })).sort((a, b) => Number(b.primary) - Number(a.primary) || a.id - b.id);
    this.setList(plural, parts);
    if (Object.keys(changes).length) this.entry(plural, 'updated', after, changes);
    return json(200, after);
  }

  private remove(plural: Plural, id: number): Response {
    const before = this.list(plural).find((p) => p.id === id);
    if (!before) return json(404, { detail: `No such ${plural.slice(0, -1)}`, code: 'not_found' });
    const left = this.list(plural).filter((p) => p.id !== id);
    // Removing the primary location makes the oldest one left primary.
    const promote = plural === 'locations' && (before as CustomerLocation).primary && left.length > 0 ? Math.min(...left.map((p) => p.id)) : null;
    this.setList(
      plural,
      left.map((p) => (p.id === promote ? { ...p, primary: true } : p)),
    );
    this.entry(plural, 'removed', before, {});
    return new Response(null, { status: 204 });
  }
}

/** The locations and contacts of the fake record's customer, answering at their paths. */
export const fakeParts = (api: FakeApi): FakeParts => new FakeParts(api, api.record);
