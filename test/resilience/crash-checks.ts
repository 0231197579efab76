// The crash suite's checks after each kill: the database itself (nothing acknowledged lost, nothing half
// written), the pending writes settled, and the sessions through the API; the logs clean.
import { expect } from 'vitest';
import { MIGRATIONS } from '../../server/migrations';
import { REFRESH_GRACE_MS, type Running, type Sql, sleep } from './crash-server';
import { call, type Client, fieldsOf, type Figures, hashToken, refused } from './crash-clients';

export async function checkDatabase(sql: Sql, clients: Client[], figures: Figures, opts: { amcheck: boolean; migrations: { seen: string | null } }): Promise<void> {
  const bad = async (what: string, text: string) => {
    const rows = await sql.query(text);
    expect(rows, what).toEqual([]);
  };
  // Nothing half there (D30: each change and its audit entry are one transaction).
  await bad(
    'customers without exactly one creation entry',
    `select c.id from customers c
      where (select count(*) from audit_log a where a.org_id = c.org_id and a.target_type = 'customer' and a.target_id = c.id
               and a.action = 'customer.created') <> 1`,
  );
  await bad(
    'customers whose version does not match their update entries',
    `select c.id, c.version from customers c
      where c.version - 1 <> (select count(*) from audit_log a where a.org_id = c.org_id and a.target_type = 'customer'
               and a.target_id = c.id and a.action in ('customer.updated', 'customer.restored'))`,
  );
  await bad(
    'customers whose deletion and delete entries disagree',
    `select c.id from customers c
      where (case when c.deleted_at is null then 0 else 1 end) <>
            (select count(*) filter (where a.action = 'customer.deleted') - count(*) filter (where a.action = 'customer.restored')
               from audit_log a where a.org_id = c.org_id and a.target_type = 'customer' and a.target_id = c.id)`,
  );
  await bad(
    'audit entries naming a customer that does not exist',
    `select a.id, a.action, a.target_id from audit_log a
      where a.target_type = 'customer' and not exists (select 1 from customers c where c.id = a.target_id and c.org_id = a.org_id)`,
  );
  await bad(
    'notes without their customer or without exactly one entry',
    `select n.id from customer_notes n
      where not exists (select 1 from customers c where c.id = n.customer_id and c.org_id = n.org_id)
         or (select count(*) from audit_log a where a.org_id = n.org_id and a.target_type = 'note' and a.target_id = n.id
               and a.action = 'note.added') <> 1`,
  );
  await bad(
    'note entries naming a note that does not exist',
    `select a.id from audit_log a
      where a.action = 'note.added' and not exists (select 1 from customer_notes n where n.id = a.target_id and n.org_id = a.org_id)`,
  );
  await bad(
    'customer_counts that differ from the live customers',
    `select coalesce(k.org_id, r.org_id) as org_id, coalesce(k.status, r.status) as status, k.n as kept, r.n as real
       from customer_counts k
       full join (select org_id, status, count(*) as n from customers where deleted_at is null group by org_id, status) r
         on r.org_id = k.org_id and r.status = k.status
      where coalesce(k.n, 0) <> coalesce(r.n, 0)`,
  );
  await bad(
    'live sessions without exactly one unused refresh token (a rotation half done)',
    `select s.id from sessions s
      where s.revoked_at is null
        and (select count(*) from refresh_tokens t where t.session_id = s.id and t.used_at is null) <> 1`,
  );
  await bad(
    'used refresh tokens without a successor',
    `select t.id from refresh_tokens t where t.used_at is not null
        and not exists (select 1 from refresh_tokens n where n.id = t.successor_id)`,
  );
  // Migrations ran once, at the first start: the same versions, applied at the same moments, every time.
  const migrations = await sql.query<{ version: number; applied_at: Date }>('select version, applied_at from schema_migrations order by version');
  expect(migrations.map((m) => Number(m.version))).toEqual(MIGRATIONS.map((m) => m.version));
  const applied = JSON.stringify(migrations.map((m) => [Number(m.version), m.applied_at.toISOString()]));
  opts.migrations.seen ??= applied;
  expect(applied, 'schema_migrations changed after a restart').toBe(opts.migrations.seen);

  // Every acknowledged write is there, in its latest acknowledged state (a write in doubt: either).
  const known = clients.flatMap((c) => [...c.customers.values()]);
  const rows = await sql.query<Record<string, unknown>>(
    `select id, org_id, name, email, phone, city, status, tags, version, deleted_at from customers where id = any($1::int[])`,
    [known.map((k) => k.id)],
  );
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  for (const k of known) {
    const row = byId.get(k.id);
    expect(row, `customer ${k.id}`).toBeDefined();
    const seen = { org: Number(row!.org_id), fields: fieldsOf(row!), version: Number(row!.version), deleted: row!.deleted_at !== null };
    expect(seen, `customer ${k.id}`).toEqual({ org: k.org, fields: k.fields, version: k.version, deleted: k.deleted });
    figures.verified.customerRows! += 1;
  }
  const notes = clients.flatMap((c) => c.notes);
  const noteRows = await sql.query<{ id: unknown; customer_id: unknown; body: string }>('select id, customer_id, body from customer_notes where id = any($1::int[])', [
    notes.map((n) => n.id),
  ]);
  const notesById = new Map(noteRows.map((r) => [Number(r.id), { id: Number(r.id), customerId: Number(r.customer_id), body: r.body }]));
  for (const n of notes) {
    expect(notesById.get(n.id), `note ${n.id}`).toEqual(n);
    figures.verified.notes! += 1;
  }
  if (opts.amcheck) {
    // After PGlite's crash recovery: every B-tree index agrees with its table (heapallindexed).
    await sql.query('create extension if not exists amcheck');
    const indexes = await sql.query<{ name: string }>(
      `select c.oid::regclass::text as name from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
        join pg_namespace ns on ns.oid = c.relnamespace where am.amname = 'btree' and ns.nspname = 'public'`,
    );
    expect(indexes.length).toBeGreaterThan(10);
    for (const { name } of indexes) await sql.query('select bt_index_check($1::regclass, true)', [name]);
  }
}

/**
 * The write each client had in flight at the kill: looked up in the database, then taken into the
 * model as found (applied or not; both are fine). Runs before checkDatabase, which then holds the
 * database to the model.
 */
export async function settlePending(sql: Sql, clients: Client[], figures: Figures): Promise<void> {
  for (const c of clients) {
    const p = c.pending;
    if (!p || p.kind === 'refresh') continue; // refreshes are settled with the session check
    c.pending = null;
    let applied = false;
    if (p.kind === 'create') {
      const [row] = await sql.query<Record<string, unknown>>(
        'select id, org_id, name, email, phone, city, status, tags, version, deleted_at from customers where org_id = $1 and email = $2',
        [p.org, p.fields.email],
      );
      if (row) {
        applied = true;
        expect(fieldsOf(row)).toEqual(p.fields);
        c.customers.set(Number(row.id), { id: Number(row.id), org: p.org, fields: p.fields, version: Number(row.version), deleted: false });
        c.touched.add(Number(row.id));
      }
    } else if (p.kind === 'update' || p.kind === 'delete') {
      const k = c.customers.get(p.id)!;
      c.touched.add(p.id);
      const [row] = await sql.query<Record<string, unknown>>('select name, email, phone, city, status, tags, version, deleted_at from customers where id = $1', [p.id]);
      const seen = { fields: fieldsOf(row!), version: Number(row!.version), deleted: row!.deleted_at !== null };
      const before = { fields: k.fields, version: k.version, deleted: k.deleted };
      const after = p.kind === 'update' ? { fields: p.fields, version: k.version + 1, deleted: false } : { ...before, deleted: true };
      applied = JSON.stringify(seen) === JSON.stringify(after);
      expect([before, after], `customer ${p.id} after a ${p.kind} in doubt`).toContainEqual(seen);
      Object.assign(k, seen);
    } else {
      const [row] = await sql.query<{ id: unknown; customer_id: unknown }>('select id, customer_id from customer_notes where body = $1', [p.body]);
      if (row) {
        applied = true;
        expect(Number(row.customer_id)).toBe(p.customerId);
        c.notes.push({ id: Number(row.id), customerId: p.customerId, body: p.body });
      }
    }
    figures.uncertain[applied ? 'applied' : 'notApplied'] += 1;
  }
}

/** What the database says of each client's last acknowledged refresh token, read before the server sees it again. */
export async function tokenStates(sql: Sql, clients: Client[]): Promise<Map<Client, { usedAt: Date | null; successorHash: string | null }>> {
  const states = new Map<Client, { usedAt: Date | null; successorHash: string | null }>();
  for (const c of clients) {
    const [row] = await sql.query<{ used_at: Date | null; successor_hash: string | null }>(
      `select t.used_at, n.token_hash as successor_hash from refresh_tokens t left join refresh_tokens n on n.id = t.successor_id
        where t.token_hash = $1`,
      [hashToken(c.refresh)],
    );
    expect(row, `client ${c.index}: its last acknowledged refresh token is in the database`).toBeDefined();
    states.set(c, { usedAt: row!.used_at, successorHash: row!.successor_hash });
  }
  return states;
}

/**
 * Through the restarted server: each acknowledged customer answers as recorded; each client's access
 * token still works; its last acknowledged refresh token refreshes — D8: when the kill cut off a
 * refresh that the server had committed, the token is rotated out: within the grace window it gets the
 * same successor, after it counts as reuse and ends the session (the client then signs in again).
 */
export async function checkThroughApi(
  base: string,
  clients: Client[],
  states: Awaited<ReturnType<typeof tokenStates>>,
  figures: Figures,
  signIn: (c: Client) => Promise<void>,
): Promise<void> {
  // D2: a restarted server on a starved machine may refuse a call unrun (503 server_busy); the app asks
  // again after Retry-After, and so does the check (a refresh so refused never rotated anything, D8).
  const served = async (...args: Parameters<typeof call>) => {
    for (;;) {
      const a = await call(...args);
      if (!refused(a)) return a;
      figures.busy += 1;
      await sleep(1000);
    }
  };
  await Promise.all(
    clients.map(async (c) => {
      for (const k of [...c.touched].map((id) => c.customers.get(id)!)) {
        const a = await served(base, 'GET', `/customers/${k.id}/`, { token: c.access, org: c.org });
        if (k.deleted) expect(a.status, `deleted customer ${k.id}`).toBe(404);
        else {
          expect(a.status, `customer ${k.id}`).toBe(200);
          expect({ fields: fieldsOf(a.body), version: a.body.version }).toEqual({ fields: k.fields, version: k.version });
        }
        figures.verified.customerAnswers! += 1;
      }
      c.touched.clear();
      const me = await served(base, 'GET', '/auth/me/', { token: c.access, org: c.org });
      expect(me.status, `client ${c.index}: /me with its last access token`).toBe(200);

      const state = states.get(c)!;
      const wasRefreshing = c.pending?.kind === 'refresh';
      c.pending = null;
      if (state.usedAt) expect(wasRefreshing, `client ${c.index}: its last acknowledged refresh token was used by no refresh of its own`).toBe(true);
      const t0 = Date.now();
      const a = await served(base, 'POST', '/auth/refresh/', { token: c.access, body: { refresh_token: c.refresh } }); // D36: as the app
      const t1 = Date.now();
      if (!c.droppedAnswer && state.usedAt) figures.uncertain.applied += 1;
      else if (!c.droppedAnswer && wasRefreshing) figures.uncertain.notApplied += 1;
      c.droppedAnswer = false;
      const sinceUse: [number, number] | null = state.usedAt ? [t0 - state.usedAt.getTime(), t1 - state.usedAt.getTime()] : null;
      if (sinceUse && sinceUse[0] > REFRESH_GRACE_MS) {
        expect(a.status, JSON.stringify(a.body)).toBe(401);
        expect(a.body.code).toBe('refresh_token_reused');
      } else if (sinceUse && sinceUse[1] > REFRESH_GRACE_MS) {
        expect([200, 401], JSON.stringify(a.body)).toContain(a.status); // on the edge of the window: either
      } else {
        expect(a.status, JSON.stringify(a.body)).toBe(200);
      }
      if (a.status === 200) {
        if (state.usedAt) {
          expect(hashToken(a.body.refresh_token as string), 'D8: the same successor within the grace window').toBe(state.successorHash);
          figures.refreshAfterRestart.grace += 1;
        } else figures.refreshAfterRestart.rotated += 1;
        c.access = a.body.access_token as string;
        c.refresh = a.body.refresh_token as string;
        c.tokens.add(c.access).add(c.refresh);
        figures.acknowledged.refresh! += 1;
        expect((await served(base, 'GET', '/auth/me/', { token: c.access, org: c.org })).status).toBe(200);
      } else {
        // Reuse ended the session for everyone: the access token of it is refused too.
        expect((await served(base, 'GET', '/auth/me/', { token: c.access, org: c.org })).status).toBe(401);
        figures.refreshAfterRestart.reused += 1;
        await signIn(c);
      }
      figures.verified.sessions! += 1;
    }),
  );
}

/** Start-up and run logs hold no error: nothing on stderr, no 5xx in the access log. */
export function expectCleanLog(run: Running, label: string): void {
  expect(run.err(), `${label}: stderr`).toBe('');
  const failed = run
    .out()
    .split('\n')
    .filter((l) => / 5\d\d [\d.]+ms$/.test(l) && !/ 503 /.test(l));
  expect(failed, `${label}: 5xx answers`).toEqual([]);
}
