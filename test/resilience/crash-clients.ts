// The crash suite's clients: what each knows of the records it wrote (every acknowledged write), and
// its loop of requests until the server dies under it.
import { createHash } from 'node:crypto';
import { API, ERROR_BODIES_PER_KIND, REQUEST_TIMEOUT_MS, sleep } from './crash-server';

type Status = 'lead' | 'active' | 'inactive';
const STATUSES: Status[] = ['lead', 'active', 'inactive'];
interface Fields {
  name: string;
  email: string | null;
  phone: string | null;
  city: string | null;
  status: Status;
  tags: string[];
}

interface KnownCustomer {
  id: number;
  org: number;
  fields: Fields;
  version: number;
  deleted: boolean;
}
interface KnownNote {
  id: number;
  customerId: number;
  body: string;
}

/** The one request a client had in flight when the server was killed: it may or may not have happened. */
type Pending =
  | { kind: 'create'; org: number; fields: Fields }
  | { kind: 'update'; id: number; fields: Fields }
  | { kind: 'delete'; id: number }
  | { kind: 'note'; customerId: number; body: string }
  | { kind: 'refresh'; token: string };

export interface Account {
  email: string;
  password: string;
  org: string;
  canDelete: boolean;
}

export interface Client {
  index: number;
  account: Account;
  org: number;
  access: string;
  refresh: string;
  rng: () => number;
  seq: number;
  customers: Map<number, KnownCustomer>;
  notes: KnownNote[];
  pending: Pending | null;
  /** Customers written since the last check through the API. */
  touched: Set<number>;
  /**
   * Its next operation is a refresh whose answer it throws away, then it waits for the kill: a refresh
   * the server committed but whose answer was lost, so that D8's grace window and reuse rule are
   * exercised across every restart (a kill landing exactly there by chance is rare).
   */
  dropRefreshAnswer: boolean;
  /** Every access and refresh token it was given: none may appear in the server's logs. */
  tokens: Set<string>;
  /** Its pending refresh is one whose answer it threw away (not counted among the writes in doubt). */
  droppedAnswer: boolean;
}

export interface Figures {
  kills: number;
  acknowledged: Record<string, number>;
  /** Checks of acknowledged state that passed: customer rows and answers, notes, tokens. */
  verified: Record<string, number>;
  /** Writes cut off by a kill, found applied or not after the restart. */
  uncertain: { applied: number; notApplied: number };
  droppedRefreshAnswers: number;
  refreshAfterRestart: { rotated: number; grace: number; reused: number };
  busy: number;
  restartMs: number[];
  /** Kill to the restarted server's checks passed. */
  cycleMs: number[];
  firstStartMs: number;
}

export const newFigures = (): Figures => ({
  kills: 0,
  acknowledged: { create: 0, update: 0, delete: 0, note: 0, refresh: 0 },
  verified: { customerRows: 0, customerAnswers: 0, notes: 0, sessions: 0 },
  uncertain: { applied: 0, notApplied: 0 },
  droppedRefreshAnswers: 0,
  refreshAfterRestart: { rotated: 0, grace: 0, reused: 0 },
  busy: 0,
  restartMs: [],
  cycleMs: [],
  firstStartMs: 0,
});

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** Thrown when a request got no answer at all (the server died under it). */
class NoAnswer extends Error {}

/** Error answers (status ≥ 400) of the scenario running, a bounded sample per status and code, for the secrets check. */
export const errorBodies = new Map<string, string[]>();
function keepErrorBody(status: number, text: string): void {
  const code = /"code":"([a-z_]+)"/.exec(text)?.[1] ?? '';
  const kept = errorBodies.get(`${status} ${code}`) ?? [];
  if (kept.length < ERROR_BODIES_PER_KIND) errorBodies.set(`${status} ${code}`, [...kept, text]);
}

export async function call(base: string, method: string, p: string, opts: { token?: string; org?: number; body?: unknown } = {}): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(`${base}${API}${p}`, {
      method,
      headers: {
        ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.org ? { 'X-Organization-ID': String(opts.org) } : {}),
        ...(opts.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    throw new NoAnswer(`${method} ${p}: ${err instanceof Error ? err.message : String(err)}`);
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    throw new NoAnswer(`${method} ${p}: body cut off: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (res.status >= 400) keepErrorBody(res.status, text);
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** D2: a saturated server refuses work it cannot start in time (503 server_busy): nothing was written. */
export const refused = (a: Answer) => a.status === 503 && a.body.code === 'server_busy';

const pick = <T>(rng: () => number, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

export function fieldsOf(body: Record<string, unknown>): Fields {
  return {
    name: body.name as string,
    email: (body.email as string | null) ?? null,
    phone: (body.phone as string | null) ?? null,
    city: (body.city as string | null) ?? null,
    status: body.status as Status,
    tags: [...((body.tags as string[] | null) ?? [])],
  };
}

/** One client's work until the server dies: one request at a time, each acknowledged write recorded. */
export async function clientLoop(c: Client, base: () => string, dead: () => boolean, figures: Figures, runTag: string, answered: () => void): Promise<void> {
  const errorIfAlive = (what: string, a: Answer) => {
    throw new Error(`client ${c.index}: ${what} answered ${a.status} ${JSON.stringify(a.body)}`);
  };
  while (!dead()) {
    const live = [...c.customers.values()].filter((k) => !k.deleted);
    const roll = c.rng();
    const kind = c.dropRefreshAnswer
      ? 'refresh'
      : live.length === 0 || roll < 0.3
        ? 'create'
        : roll < 0.58
          ? 'update'
          : roll < 0.68
            ? c.account.canDelete
              ? 'delete'
              : 'update'
            : roll < 0.88
              ? 'note'
              : 'refresh';
    c.seq += 1;
    const tag = `${runTag}-${c.index}-${c.seq}`;
    try {
      if (kind === 'create') {
        const fields: Fields = {
          name: `Crash ${tag}`,
          email: `crash-${tag}@example.test`,
          phone: `+1 555 ${String(1_000_000 + Math.floor(c.rng() * 8_999_999))}`,
          city: `City ${tag}`,
          status: pick(c.rng, STATUSES),
          tags: c.rng() < 0.5 ? ['crash'] : [],
        };
        c.pending = { kind, org: c.org, fields };
        const a = await call(base(), 'POST', '/customers/', { token: c.access, org: c.org, body: fields });
        if (refused(a)) figures.busy += 1;
        else if (a.status !== 201) errorIfAlive('create', a);
        else {
          const id = a.body.id as number;
          c.customers.set(id, { id, org: c.org, fields: fieldsOf(a.body), version: a.body.version as number, deleted: false });
          c.touched.add(id);
          figures.acknowledged.create! += 1;
        }
      } else if (kind === 'update' || kind === 'delete' || kind === 'note') {
        const target = pick(c.rng, live);
        c.touched.add(target.id);
        if (kind === 'update') {
          // Always a new city, so the save changes something (a save that changes nothing writes nothing).
          const patch: Partial<Fields> = { city: `City ${tag}`, ...(c.rng() < 0.6 ? { status: pick(c.rng, STATUSES) } : {}) };
          c.pending = { kind, id: target.id, fields: { ...target.fields, ...patch } };
          const a = await call(base(), 'PATCH', `/customers/${target.id}/`, { token: c.access, org: c.org, body: { ...patch, version: target.version } });
          if (refused(a)) figures.busy += 1;
          else if (a.status !== 200) errorIfAlive('update', a);
          else {
            Object.assign(target, { fields: fieldsOf(a.body), version: a.body.version as number });
            figures.acknowledged.update! += 1;
          }
        } else if (kind === 'delete') {
          c.pending = { kind, id: target.id };
          const a = await call(base(), 'DELETE', `/customers/${target.id}/`, { token: c.access, org: c.org });
          if (refused(a)) figures.busy += 1;
          else if (a.status !== 204) errorIfAlive('delete', a);
          else {
            target.deleted = true;
            figures.acknowledged.delete! += 1;
          }
        } else {
          const body = `Note ${tag}`;
          c.pending = { kind, customerId: target.id, body };
          const a = await call(base(), 'POST', `/customers/${target.id}/notes/`, { token: c.access, org: c.org, body: { body } });
          if (refused(a)) figures.busy += 1;
          else if (a.status !== 201) errorIfAlive('note', a);
          else {
            c.notes.push({ id: a.body.id as number, customerId: target.id, body });
            figures.acknowledged.note! += 1;
          }
        }
      } else {
        c.pending = { kind: 'refresh', token: c.refresh };
        // As the app does: its access token beside, so its address's failed refreshes do not hold it back (D36).
        const a = await call(base(), 'POST', '/auth/refresh/', { token: c.access, body: { refresh_token: c.refresh } });
        if (refused(a)) figures.busy += 1;
        else if (a.status !== 200) errorIfAlive('refresh', a);
        else if (c.dropRefreshAnswer) {
          c.dropRefreshAnswer = false;
          c.droppedAnswer = true;
          c.tokens.add(a.body.access_token as string).add(a.body.refresh_token as string);
          figures.droppedRefreshAnswers += 1;
          while (!dead()) await sleep(10); // c.pending stays: the answer counts as lost
          return;
        } else {
          c.access = a.body.access_token as string;
          c.refresh = a.body.refresh_token as string;
          c.tokens.add(c.access).add(c.refresh);
          figures.acknowledged.refresh! += 1;
        }
      }
      c.pending = null; // answered: whatever it said, the model now holds it
      answered();
    } catch (err) {
      // No answer while the server is alive is a failure; after the kill it is the write in doubt.
      if (err instanceof NoAnswer && dead()) return;
      throw err;
    }
  }
}
