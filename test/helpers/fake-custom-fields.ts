// D56: the custom field definitions' calls as the server answers them, for the settings screen
// (/settings/fields): list, one with its count, create, change, archive, restore, delete and order, with the
// server's refusals (duplicate label or key, the limit, delete before archive). `failNext` makes the next
// write answer something else (a 400 naming a field, a 409, a 500).
import { CUSTOM_FIELD_LIMITS, keyFromLabel, type CustomField, type CustomFieldKind } from '../../contract/custom-fields';
import type { FakeApi } from './fake-api';
import { json, type Call } from './fake-http';

const BASE = '/v1/custom-fields/';
type Body = Record<string, unknown> & { options?: { id?: string; label: string }[] };

export class FakeCustomFields {
  fields: CustomField[];
  /** How many records hold a value of each field (by id). */
  held = new Map<number, number>();
  private next: (() => Response) | null = null;
  private nextId = 100;

  constructor(
    private api: FakeApi,
    fields: CustomField[],
  ) {
    this.fields = fields.map((f) => ({ ...f, options: f.options.map((o) => ({ ...o })) }));
    api.routes.set(BASE, (c) => this.write(c, () => (c.method === 'POST' ? this.create(c.body as Body) : this.list())));
    api.routes.set(`${BASE}order/`, (c) => this.write(c, () => this.order(c.body as { record_kind: CustomFieldKind; ids: number[] })));
    for (const f of this.fields) this.serve(f.id);
  }

  /** The next write (not a GET) answers `status` with `body` and changes nothing. */
  failNext(status: number, body: Record<string, unknown>) {
    this.next = () => json(status, body);
  }
  /** The writes sent, as [method, path, body]. */
  writes = () => this.api.calls.filter((c) => c.method !== 'GET' && c.path.startsWith('/api/v1/custom-fields/')).map((c) => [c.method, c.path.slice(4), c.body]);
  byLabel = (label: string) => this.fields.find((f) => f.label === label)!;

  private write(c: Call, run: () => Response): Response {
    if (c.method !== 'GET' && this.next) {
      const answer = this.next;
      this.next = null;
      return answer();
    }
    return run();
  }
  private serve(id: number) {
    const path = `${BASE}${id}/`;
    this.api.routes.set(path, (c) => this.write(c, () => this.one(c, id)));
    this.api.routes.set(`${path}archive/`, (c) => this.write(c, () => this.archive(id, true)));
    this.api.routes.set(`${path}restore/`, (c) => this.write(c, () => this.archive(id, false)));
  }
  private list() {
    const order = (f: CustomField) => (f.record_kind === 'customer' ? 0 : 1000) + f.position;
    return json(200, { results: [...this.fields].sort((a, b) => order(a) - order(b)) });
  }
  private labelTaken(kind: CustomFieldKind, label: string, except: number | null) {
    const other = this.fields.find((f) => f.record_kind === kind && f.id !== except && f.label.toLowerCase() === label.toLowerCase());
    return other ? json(409, { code: 'duplicate_label', detail: `Another customer field is called “${other.label}”`, field: 'label' }) : null;
  }
  private create(b: Body) {
    const kind = (b.record_kind as CustomFieldKind) ?? 'customer';
    const mine = this.fields.filter((f) => f.record_kind === kind);
    const limit = CUSTOM_FIELD_LIMITS[kind];
    if (mine.length >= limit) return json(409, { code: 'too_many_custom_fields', detail: `An organization can have at most ${limit} customer fields`, limit });
    const taken = this.labelTaken(kind, String(b.label), null);
    if (taken) return taken;
    const key = (b.key as string | undefined) ?? keyFromLabel(String(b.label));
    if (this.fields.some((f) => f.key === key && f.record_kind === kind))
      return json(409, { code: 'duplicate_key', detail: `Another field has the key ${key}`, field: 'key' });
    const field: CustomField = {
      id: this.nextId++,
      record_kind: kind,
      key,
      label: String(b.label),
      type: b.type as CustomField['type'],
      options: (b.options ?? []).map((o, i) => ({ id: `o${i + 1}`, label: o.label })),
      help: (b.help as string | null) ?? null,
      required: Boolean(b.required),
      unique: Boolean(b.unique),
      position: Math.max(0, ...mine.map((f) => f.position)) + 1,
      archived: false,
      archived_at: null,
      created_at: '2026-01-01T00:00:00Z',
    };
    this.fields.push(field);
    this.serve(field.id);
    return json(201, field);
  }
  private one(c: Call, id: number) {
    const f = this.fields.find((x) => x.id === id);
    if (!f) return json(404, { code: 'not_found', detail: 'Not found' });
    if (c.method === 'GET') return json(200, { ...f, records_with_value: this.held.get(id) ?? 0 });
    if (c.method === 'DELETE') {
      if (!f.archived) return json(409, { code: 'field_not_archived', detail: `Archive “${f.label}” before deleting it` });
      this.fields = this.fields.filter((x) => x !== f);
      return json(200, { id, label: f.label, records_with_value: this.held.get(id) ?? 0 });
    }
    const b = c.body as Body;
    if (typeof b.label === 'string') {
      const taken = this.labelTaken(f.record_kind, b.label, id);
      if (taken) return taken;
    }
    let n = Math.max(0, ...f.options.map((o) => Number(o.id.slice(1)))) + 1;
    const options = b.options?.map((o) => ({ id: o.id ?? `o${n++}`, label: o.label }));
    Object.assign(f, b, options ? { options } : {});
    return json(200, f);
  }
  private archive(id: number, archived: boolean) {
    const f = this.fields.find((x) => x.id === id)!;
    Object.assign(f, { archived, archived_at: archived ? '2026-01-02T00:00:00Z' : null });
    return json(200, f);
  }
  private order({ record_kind, ids }: { record_kind: CustomFieldKind; ids: number[] }) {
    const mine = this.fields.filter((f) => f.record_kind === record_kind);
    if (ids.length !== mine.length || !mine.every((f) => ids.includes(f.id)))
      return json(400, { code: 'invalid_field', detail: `ids: must list every field once (${mine.length})`, field: 'ids' });
    for (const [i, id] of ids.entries()) this.fields.find((f) => f.id === id)!.position = i + 1;
    return json(200, { results: ids.map((id) => this.fields.find((f) => f.id === id)) });
  }
}
