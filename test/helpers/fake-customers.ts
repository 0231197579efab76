// The customers list as the fake API answers it (FakeApi.customers): D26 search, filters, sorts and
// paging (D48's type, flag, status and city too), D25's deleted list and restore, D27's export and D45's tag suggestions, on 30 demo customers.
import { ASSIGNEES_PATH } from '../../contract/assignment';
import { DEFAULT_PAGE_SIZE, type CustomerListItem, type PersonRef } from '../../contract/customers';
import { phoneDigits } from '../../contract/matching';
import { json, type Call } from './fake-http';

/** A customer row as the fake keeps it: a list item plus what the list may show or filter on. */
export interface FakeCustomer extends CustomerListItem {
  created_at: string;
}

const FIRST = ['Ava', 'Ben', 'Chloe', 'Diego', 'Emma', 'Fatima', 'Grace', 'Hannah', 'Isaac', 'Kenji'];
const LAST = ['Patel', 'Okafor', 'Nguyen'];
const STATUSES = ['active', 'lead', 'inactive'] as const;
const day = (n: number) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString();

/** 30 customers: names A–K × three surnames; the 3rd of each first name a lead, tags on some; created one a day. */
export function demoCustomers(): FakeCustomer[] {
  return FIRST.flatMap((first, i) =>
    LAST.map((last, j): FakeCustomer => {
      const n = i * 3 + j;
      return {
        id: 100 + n,
        name: `${first} ${last}`,
        company: j === 1 ? `${last} Holdings` : null,
        email: `${first}.${last}@example.com`.toLowerCase(),
        phone: `(503) 555-01${String(n).padStart(2, '0')}`,
        city: 'Portland',
        status: STATUSES[j]!,
        tags: n % 4 === 0 ? ['vip'] : n % 5 === 0 ? ['boiler', 'north'] : [],
        type: 'residential',
        do_not_service: false,
        custom: {},
        assigned_to: null,
        created_at: day(n),
        updated_at: day(60 - n),
      };
    }),
  );
}

const byText = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });

/**
 * GET /v1/customers/ (D26 search, filters, sorts, paging; D25 deleted=true), POST …/{id}/restore/ and
 * GET …/export.csv, the way the server answers them. `permissions` are the caller's (403 without).
 */
export class FakeCustomers {
  rows: FakeCustomer[];
  permissions = new Set(['customers:view', 'customers:create', 'customers:update', 'customers:delete', 'customers:export']);
  /** Answers to give before the normal ones, in order ('network' fails like fetch does offline). */
  failures: (number | 'network')[] = [];
  /** The list calls made, as their query strings. */
  listQueries: string[] = [];
  /** D45: the q of each tag suggestions call. */
  tagQueries: string[] = [];
  /** D59: the members a customer may be assigned to, and the caller's user id (`assigned=me`). */
  assignees: PersonRef[] = [
    { id: 1, name: 'Olive' },
    { id: 4, name: 'Tess Tech' },
  ];
  me = 1;
  private gate: Promise<void> | null = null;
  private open: () => void = () => undefined;

  constructor(rows: FakeCustomer[] = demoCustomers()) {
    this.rows = rows;
  }

  /** Holds every answer until release(). */
  hold(): void {
    this.gate = new Promise((r) => (this.open = r));
  }
  release(): void {
    this.gate = null;
    this.open();
  }

  /** Soft-deletes a customer as of `at`, by `by`. */
  remove(id: number, at: string, by: PersonRef | null = { id: 1, name: 'Olive' }): void {
    const row = this.rows.find((r) => r.id === id)!;
    row.deleted_at = at;
    row.deleted_by = by;
  }

  private live = () => this.rows.filter((r) => !r.deleted_at);

  filtered(params: URLSearchParams): FakeCustomer[] {
    const q = (params.get('q') ?? '').toLowerCase();
    const digits = phoneDigits(q);
    const status = params.get('status');
    const tag = params.get('tag')?.toLowerCase();
    const sort = params.get('sort') ?? 'name';
    const field = sort.replace(/^-/, '') as 'name' | 'created_at' | 'updated_at' | 'status' | 'city';
    const type = params.get('type');
    const flagged = params.get('do_not_service') === 'true';
    const since = params.get('created_since') ?? ''; // D32
    const assigned = params.get('assigned'); // D59
    const assignee = assigned === 'me' ? this.me : assigned === 'none' ? null : Number(assigned);
    const rows = this.live().filter(
      (c) =>
        (!q || [c.name, c.company, c.email, c.phone].some((v) => v?.toLowerCase().includes(q)) || (digits.length > 2 && phoneDigits(c.phone ?? '').includes(digits))) &&
        (!status || c.status === status) &&
        (!tag || c.tags.some((t) => t.toLowerCase() === tag)) &&
        (!type || c.type === type) && // D48
        (!flagged || c.do_not_service) &&
        (!since || Date.parse(c.created_at) >= Date.parse(since)) &&
        (assigned === null || (c.assigned_to?.id ?? null) === assignee),
    );
    // D48: a customer without a city sorts after every city (before them when descending).
    rows.sort((a, b) => (a[field] === null ? 1 : 0) - (b[field] === null ? 1 : 0) || byText(a[field] ?? '', b[field] ?? '') || a.id - b.id);
    return sort.startsWith('-') ? rows.reverse() : rows;
  }

  async handle(call: Call, path: string, params: URLSearchParams): Promise<Response> {
    if (path === ASSIGNEES_PATH && call.method === 'GET') return json(200, { results: this.assignees }); // D59, apart from the list's failures
    if (this.gate) await this.gate;
    const failure = this.failures.shift();
    if (failure === 'network') throw new TypeError('Failed to fetch');
    if (failure) return json(failure, { detail: 'Something went wrong.', code: 'error' });
    const denied = (p: string) => json(403, { detail: `You need ${p}.`, code: 'permission_denied' });
    if (path === '/v1/customers/' && call.method === 'GET') {
      this.listQueries.push(call.search);
      const page = Number(params.get('page') ?? 1);
      const size = Number(params.get('page_size') ?? DEFAULT_PAGE_SIZE);
      let rows: CustomerListItem[];
      if (params.get('deleted') === 'true') {
        if (!this.permissions.has('customers:delete')) return denied('customers:delete');
        rows = this.rows.filter((r) => r.deleted_at).sort((a, b) => byText(b.deleted_at!, a.deleted_at!));
      } else rows = this.filtered(params);
      return json(200, { count: rows.length, results: rows.slice((page - 1) * size, page * size) });
    }
    if (path === '/v1/customers/tags/' && call.method === 'GET') {
      // D45: the organization's tags containing q, ignoring case.
      const q = (params.get('q') ?? '').toLowerCase();
      this.tagQueries.push(q);
      const tags = [...new Set(this.live().flatMap((c) => c.tags))].filter((t) => t.toLowerCase().includes(q)).sort();
      return json(200, { results: tags });
    }
    if (path === '/v1/customers/export.csv') {
      if (!this.permissions.has('customers:export')) return denied('customers:export');
      const lines = ['name,email', ...this.filtered(params).map((c) => `${c.name},${c.email ?? ''}`)];
      return new Response(`\uFEFF${lines.join('\r\n')}\r\n`, { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
    }
    const restore = /^\/v1\/customers\/(\d+)\/restore\/$/.exec(path);
    if (restore && call.method === 'POST') {
      if (!this.permissions.has('customers:delete')) return denied('customers:delete');
      const row = this.rows.find((r) => r.id === Number(restore[1]) && r.deleted_at);
      if (!row) return json(404, { detail: 'Not found.', code: 'not_found' });
      const holder = this.live().find((r) => row.email && r.email === row.email);
      if (holder) {
        return json(409, { detail: 'Another customer has this email.', code: 'duplicate_email', field: 'email', existing: { id: holder.id, name: holder.name } });
      }
      delete row.deleted_at;
      delete row.deleted_by;
      return json(200, { ...row, version: 2 });
    }
    return json(404, { detail: 'No such endpoint', code: 'not_found' });
  }
}
