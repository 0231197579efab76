// One customer's record, notes and timeline (D22 D24 D25), the dashboard (D32) and the import (D27) on
// a FakeApi's exact-path routes, answering the way the server does. Failures are programmed per
// "METHOD path" and used in order.
import type { AuditAction, AuditEntryView } from '../../contract/audit';
import type { Customer, DashboardData, ImportPreview, ImportResult, Note, PersonRef, TimelineItem } from '../../contract/customers';
import type { FakeApi } from './fake-api';
import { json, type Call } from './fake-http';
import { PLAIN_EXTRAS } from './fake-records';

export const OLIVIA: PersonRef = { id: 1, name: 'Olivia' };
export const SAM: PersonRef = { id: 2, name: 'Sam' };
const T0 = Date.parse('2025-03-01T10:00:00Z');
/** An ISO time `minutes` after the record was made. */
export const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

export function janeDoe(over: Partial<Customer> = {}): Customer {
  return {
    id: 101,
    name: 'Jane Doe',
    company: 'Doe Plumbing Supplies',
    email: 'jane@example.com',
    phone: '(503) 555-0199',
    address_line: '12 Oak Street',
    city: 'Portland',
    region: 'OR',
    postal_code: '97201',
    country: 'USA',
    status: 'active',
    tags: ['vip', 'boiler'],
    ...PLAIN_EXTRAS,
    created_at: at(0),
    created_by: OLIVIA,
    updated_at: at(60),
    updated_by: SAM,
    version: 3,
    ...over,
  };
}

export function audit(
  id: number,
  action: AuditAction,
  actor: PersonRef | null,
  minutes: number,
  changes: Record<string, unknown> = {},
  target?: Partial<AuditEntryView['target']>,
): TimelineItem {
  return { kind: 'audit', id, at: at(minutes), actor, action, target: { type: 'customer', id: 101, label: 'Jane Doe', ...target }, changes };
}

export function note(id: number, body: string, author: PersonRef | null, minutes: number, editedMinutes = minutes): TimelineItem {
  return { kind: 'note', id, body, author, created_at: at(minutes), updated_at: at(editedMinutes) };
}

type Handler = (call: Call) => Response;
const NOT_FOUND = () => json(404, { detail: 'No such customer', code: 'not_found' });

export class FakeRecord {
  customer: Customer | null;
  private timelineItems: TimelineItem[] = [];
  /** Who the caller is, as the server knows them (the author of new notes). */
  me: PersonRef = OLIVIA;
  permissions = new Set(['customers:view', 'customers:create', 'customers:update', 'customers:delete']);
  deleted = false;
  /** "METHOD /v1/path/" → statuses (or bodies) to answer with first, in order. */
  failures = new Map<string, (number | { status: number; body: unknown })[]>();
  dashboard: DashboardData | null = null;
  preview: ImportPreview | null = null;
  importAnswer: ((call: Call) => Response) | null = null;
  private nextNote = 500;

  constructor(
    private api: FakeApi,
    customer: Customer | null = janeDoe(),
    items: TimelineItem[] = [],
  ) {
    this.customer = customer;
    const id = customer?.id ?? 101;
    const base = `/v1/customers/${id}/`;
    this.route(base, (c) => this.record(c));
    this.route(`${base}timeline/`, (c) => this.timeline(c));
    this.route(`${base}notes/`, (c) => this.addNote(c));
    this.route(`${base}restore/`, () => this.restore());
    this.items = items;
    this.route('/v1/dashboard/', () => (this.dashboard ? json(200, this.dashboard) : json(404, { detail: 'none', code: 'not_found' })));
    this.route('/v1/customers/import/preview/', () => json(200, this.preview));
    this.route(
      '/v1/customers/import/',
      (c) => this.importAnswer?.(c) ?? json(200, { created: 0, updated: 0, unchanged: 0, skipped: 0, changed_since_preview: [] } satisfies ImportResult),
    );
  }

  /** The notes and audit entries, newest first as the server orders them; each note answers at its own path. */
  get items(): TimelineItem[] {
    return this.timelineItems;
  }
  set items(items: TimelineItem[]) {
    this.timelineItems = items;
    for (const item of items) if (item.kind === 'note') this.noteRoute(item.id);
  }

  /** The calls made to a path (without /api), optionally of one method. */
  calls(path: string, method?: string): Call[] {
    return this.api.calls.filter((c) => c.path === `/api${path}` && (!method || c.method === method));
  }

  private route(path: string, handler: Handler) {
    this.api.routes.set(path, (call) => {
      const queue = this.failures.get(`${call.method} ${path}`);
      const failure = queue?.shift();
      if (typeof failure === 'number') return json(failure, { detail: 'Something went wrong.', code: 'error' });
      if (failure) return json(failure.status, failure.body);
      return handler(call);
    });
  }

  private denied = (p: string) => json(403, { detail: `You need ${p}.`, code: 'permission_denied' });

  private record(call: Call): Response {
    if (!this.customer || this.deleted) return NOT_FOUND();
    if (call.method === 'GET') return json(200, this.customer);
    if (call.method === 'DELETE') {
      if (!this.permissions.has('customers:delete')) return this.denied('customers:delete');
      this.deleted = true;
      return new Response(null, { status: 204 });
    }
    if (call.method === 'PATCH') return this.patch(call.body as Record<string, unknown>);
    return json(405, { detail: 'Method not allowed', code: 'method_not_allowed' });
  }

  /** D31: a stale version is a 409 conflict with the current record; a change is a timeline entry (D24). */
  private patch({ version, ...changes }: Record<string, unknown>): Response {
    const c = this.customer!;
    if (!this.permissions.has('customers:update')) return this.denied('customers:update');
    if (version !== c.version) return json(409, { detail: 'Someone changed this customer since you opened it', code: 'conflict', current: c });
    const fields = c as unknown as Record<string, unknown>;
    const diff = Object.fromEntries(
      Object.entries(changes).flatMap(([f, to]) => (JSON.stringify(fields[f]) === JSON.stringify(to) ? [] : [[f, { from: fields[f], to }]])),
    );
    this.customer = { ...c, ...changes, version: c.version + 1, updated_by: this.me };
    if (Object.keys(diff).length) this.items.unshift(audit(900 + this.items.length, 'customer.updated', this.me, 24 * 60, diff));
    return json(200, this.customer);
  }

  private restore(): Response {
    if (!this.customer || !this.deleted) return NOT_FOUND();
    this.deleted = false;
    return json(200, this.customer);
  }

  private timeline(call: Call): Response {
    if (!this.customer || this.deleted) return NOT_FOUND();
    const q = new URLSearchParams(call.search);
    const page = Number(q.get('page') ?? 1);
    const size = Number(q.get('page_size') ?? 25);
    return json(200, { count: this.items.length, results: this.items.slice((page - 1) * size, page * size) });
  }

  private addNote(call: Call): Response {
    if (!this.customer || this.deleted) return NOT_FOUND();
    if (call.method !== 'POST') return json(405, { detail: 'Method not allowed', code: 'method_not_allowed' });
    if (!this.permissions.has('customers:update')) return this.denied('customers:update');
    const body = String((call.body as { body?: unknown }).body ?? '');
    const created = note(this.nextNote++, body, this.me, 24 * 60);
    this.items.unshift(created);
    this.noteRoute(created.id);
    const { kind: _k, ...plain } = created as Extract<TimelineItem, { kind: 'note' }>;
    return json(201, plain satisfies Note);
  }

  private noteRoute(noteId: number) {
    this.route(`/v1/customers/${this.customer?.id ?? 101}/notes/${noteId}/`, (call) => {
      const i = this.items.findIndex((it) => it.kind === 'note' && it.id === noteId);
      const found = this.items[i] as Extract<TimelineItem, { kind: 'note' }> | undefined;
      if (!found) return json(404, { detail: 'No such note', code: 'not_found' });
      if (found.author?.id !== this.me.id && !this.permissions.has('customers:update')) return this.denied('customers:update');
      if (call.method === 'DELETE') {
        this.items.splice(i, 1);
        return new Response(null, { status: 204 });
      }
      found.body = String((call.body as { body?: unknown }).body ?? '');
      found.updated_at = at(25 * 60);
      const { kind: _k, ...plain } = found;
      return json(200, plain);
    });
  }
}
