// D49 merge and undo as the fake API answers them (test/helpers/fake-api.ts routes), on two duplicates,
// Ann Lee and Anna Lee: the preview, the merge, its undo, each customer's record (404 `merged` once
// merged into the other), an empty timeline, the customers list's search for the merge picker and D23's
// duplicates look-up.
import type { Customer, CustomerListItem } from '../../contract/customers';
import { fold } from '../../contract/fold';
import { phoneDigits } from '../../contract/matching';
import { keptDetailNote, keptDetails, MERGE_FIELDS, type MergeHistory, type MergePreview, type MergeRequest, proposedSurvivor } from '../../contract/merge';
import type { FakeApi } from './fake-api';
import { json, type Call } from './fake-http';
import { OLIVE, PLAIN_EXTRAS } from './fake-records';

const TIME = '2025-04-01T09:00:00Z';
const location = (id: number, city: string, primary: boolean) => ({
  id,
  label: null,
  address_line: `${id} Oak St`,
  city,
  region: 'OR',
  postal_code: null,
  country: null,
  access_notes: null,
  primary,
  created_at: TIME,
  updated_at: TIME,
});
const contact = (id: number, name: string) => ({ id, name, role: 'tenant', email: null, phone: null, note: null, created_at: TIME, updated_at: TIME });

export const ANN_LEE: Customer = {
  ...PLAIN_EXTRAS,
  id: 21,
  name: 'Ann Lee',
  company: null,
  email: 'ann@example.com',
  phone: '(503) 555-0142',
  address_line: '4 Elm St',
  city: 'Portland',
  region: 'OR',
  postal_code: '97201',
  country: 'US',
  status: 'active',
  tags: ['vip'],
  lead_source: 'Yelp',
  locations: [location(1, 'Portland', true)],
  created_at: TIME,
  created_by: OLIVE,
  updated_at: TIME,
  updated_by: OLIVE,
  version: 2,
};
export const ANNA_LEE: Customer = {
  ...ANN_LEE,
  id: 22,
  name: 'Anna Lee',
  email: null,
  city: 'Tigard',
  status: 'lead',
  type: 'commercial',
  tags: ['vip', 'boiler'],
  lead_source: null,
  do_not_service: true,
  do_not_service_reason: 'Unpaid invoice',
  locations: [location(2, 'Tigard', true)],
  contacts: [contact(3, 'Tom Tenant'), contact(4, 'Pat Manager')],
  version: 5,
};

const listItem = (c: Customer): CustomerListItem => ({
  id: c.id,
  name: c.name,
  company: c.company,
  email: c.email,
  phone: c.phone,
  city: c.city,
  status: c.status,
  tags: c.tags,
  type: c.type,
  do_not_service: c.do_not_service,
  created_at: c.created_at,
  updated_at: c.updated_at,
  custom: c.custom,
  assigned_to: c.assigned_to,
});

export class FakeMerge {
  rows = new Map<number, Customer>([ANN_LEE, ANNA_LEE].map((c) => [c.id, structuredClone(c)]));
  /** Merged customer id → its survivor. */
  mergedInto = new Map<number, number>();
  /** Each merge: both customers as they were before it, and whether it was undone. */
  merges = new Map<number, { before: [Customer, Customer]; undone: boolean }>();
  /** "METHOD path" → answers to give before the normal ones, in order ('network': fetch fails). */
  next = new Map<string, (Response | 'network')[]>();
  notes = 3;
  /** D66: each customer's history (Ann Lee has more: the preview proposes her). */
  history = new Map<number, MergeHistory>([
    [21, { notes: 4, entries: 6 }],
    [22, { notes: 3, entries: 2 }],
  ]);
  private nextMergeId = 900;
  private nextContactId = 700;

  constructor(readonly api: FakeApi) {
    this.route('/v1/customers/merge/preview/', (c) => this.preview(new URLSearchParams(c.search)));
    this.route('/v1/customers/merge/', (c) => this.merge(c.body as MergeRequest));
    this.route('/v1/customers/', (c) => this.list(new URLSearchParams(c.search)));
    this.route('/v1/customers/duplicates/', (c) => this.duplicates(new URLSearchParams(c.search)));
    for (const id of this.rows.keys()) {
      this.route(`/v1/customers/${id}/`, () => this.record(id));
      this.route(`/v1/customers/${id}/timeline/`, () => json(200, { count: 0, results: [] }));
    }
  }

  /** The calls made to a path (without /api), optionally of one method. */
  calls(path: string, method?: string): Call[] {
    return this.api.calls.filter((c) => c.path === `/api${path}` && (!method || c.method === method));
  }

  /** Answers `METHOD path` with these first (a status becomes `{detail, code}`). */
  fail(key: string, ...answers: (Response | 'network' | [number, string, string])[]) {
    this.next.set(
      key,
      answers.map((a) => (Array.isArray(a) ? json(a[0], { detail: a[2], code: a[1] }) : a)),
    );
  }

  private route(path: string, handler: (call: Call) => Response) {
    this.api.routes.set(path, (call) => {
      const first = this.next.get(`${call.method} ${path}`)?.shift();
      if (first === 'network') throw new TypeError('Failed to fetch');
      return first ?? handler(call);
    });
  }

  private gone(id: number): Response | null {
    const into = this.mergedInto.get(id);
    if (into === undefined) return this.rows.has(id) ? null : json(404, { detail: 'Not found.', code: 'not_found' });
    const s = this.rows.get(into)!;
    return json(404, { detail: `This customer was merged into ${s.name}.`, code: 'merged', merged_into: { id: s.id, name: s.name } });
  }

  private record(id: number): Response {
    return this.gone(id) ?? json(200, this.rows.get(id));
  }

  private preview(q: URLSearchParams): Response {
    const s = Number(q.get('survivor_id'));
    const m = Number(q.get('merged_id'));
    if (s === m) return json(400, { detail: 'A customer cannot be merged into itself.', code: 'same_customer' });
    const refused = this.gone(s) ?? this.gone(m);
    if (refused) return refused;
    let [survivor, merged] = [this.rows.get(s)!, this.rows.get(m)!];
    const historyOf = (id: number) => this.history.get(id) ?? { notes: 0, entries: 1 };
    // D66: propose=true answers the customer with more history as the survivor.
    if (q.get('propose') === 'true' && proposedSurvivor(survivor, historyOf(s), merged, historyOf(m)) === merged) [survivor, merged] = [merged, survivor];
    const moves = {
      notes: this.notes,
      locations: merged.locations.length,
      contacts: merged.contacts.length,
      tags: merged.tags.filter((t) => !survivor.tags.includes(t)),
    };
    const history = { survivor: historyOf(survivor.id), merged: historyOf(merged.id) };
    return json(200, { survivor, merged, moves, history } satisfies MergePreview);
  }

  private merge(body: MergeRequest): Response {
    const refused = this.gone(body.survivor_id) ?? this.gone(body.merged_id);
    if (refused) return refused;
    const [s, m] = [this.rows.get(body.survivor_id)!, this.rows.get(body.merged_id)!];
    // D66: the emails and phones the choices leave off, kept as contacts (as the server makes them).
    const kept = keptDetails(s, m, body.fields).map((k) => ({
      ...contact(this.nextContactId++, k.name),
      role: null,
      email: k.email,
      phone: k.phone,
      note: keptDetailNote(m.name),
    }));
    const after: Customer = {
      ...s,
      tags: [...new Set([...s.tags, ...m.tags])],
      locations: [...s.locations, ...m.locations],
      contacts: [...s.contacts, ...m.contacts, ...kept],
    };
    for (const f of MERGE_FIELDS) {
      if (body.fields[f] !== 'merged') continue;
      Object.assign(after, { [f]: m[f] }, f === 'do_not_service' ? { do_not_service_reason: m.do_not_service_reason } : {});
    }
    after.version += 1;
    const mergeId = this.nextMergeId++;
    this.merges.set(mergeId, { before: [structuredClone(s), structuredClone(m)], undone: false });
    this.rows.set(s.id, after);
    this.mergedInto.set(m.id, s.id);
    this.api.routes.set(`/v1/customers/merges/${mergeId}/undo/`, () => this.undo(mergeId));
    return json(200, { ...after, merge_id: mergeId });
  }

  private undo(mergeId: number): Response {
    const first = this.next.get(`POST /v1/customers/merges/${mergeId}/undo/`)?.shift();
    if (first === 'network') throw new TypeError('Failed to fetch');
    if (first) return first;
    const merge = this.merges.get(mergeId)!;
    if (merge.undone) return json(409, { detail: 'This merge was already undone', code: 'merge_undone' });
    merge.undone = true;
    const [s, m] = merge.before;
    this.rows.set(s.id, { ...s, version: s.version + 2 });
    this.rows.set(m.id, m);
    this.mergedInto.delete(m.id);
    return json(200, { survivor: this.rows.get(s.id), merged: m });
  }

  /** D23: the live customers with the email, the phone's digits or the name (folded), as the server orders the reasons. */
  private duplicates(q: URLSearchParams): Response {
    const [email, digits, name] = [q.get('email'), phoneDigits(q.get('phone') ?? ''), fold(q.get('name') ?? '')];
    const results = [...this.rows.values()].flatMap((c) => {
      if (this.mergedInto.has(c.id) || c.id === Number(q.get('exclude'))) return [];
      const match = email && c.email === email ? 'email' : digits && phoneDigits(c.phone ?? '') === digits ? 'phone' : name && fold(c.name) === name ? 'name' : null;
      return match ? [{ id: c.id, name: c.name, email: c.email, phone: c.phone, match, contact: null }] : [];
    });
    return json(200, { results });
  }

  private list(q: URLSearchParams): Response {
    const text = fold(q.get('q') ?? '');
    const rows = [...this.rows.values()].filter((c) => !this.mergedInto.has(c.id) && (!text || fold(c.name).includes(text))).sort((a, b) => a.name.localeCompare(b.name)); // by name, as the list is
    return json(200, { count: rows.length, results: rows.map(listItem) });
  }
}
