// The crash suite's scenario (crash.test.ts): clients at work against the built server, SIGKILL at
// seeded moments, restart on the same data, the checks after every restart and at the end.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { prng } from './catalog';
import { mfaJourney } from './mfa-journey';
import { assertNoSecrets, auditRows, serverSecrets, withoutDemoBanner, type Secret } from './secrets';
import {
  BACKEND_BUDGET_MS,
  copyDir,
  DEMO_PASSWORD,
  KILL_AFTER_MS,
  KILLS,
  MIN_KILLS,
  pgliteSql,
  postgresSql,
  type Running,
  SEED,
  sleep,
  startBuilt,
} from './crash-server';
import { type Account, call, type Client, clientLoop, errorBodies, type Figures, newFigures, refused } from './crash-clients';
import { checkDatabase, checkThroughApi, expectCleanLog, settlePending, tokenStates } from './crash-checks';

export async function crashScenario(label: string, db: { dataDir?: string; databaseUrl?: string }): Promise<Figures> {
  const figures = newFigures();
  const rng = prng(SEED ^ (label === 'PGlite' ? 0x1111 : 0x2222));
  const runTag = randomBytes(3).toString('hex');
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'crm-crash-logs-'));
  const snapshotDir = db.dataDir ? mkdtempSync(path.join(os.tmpdir(), 'crm-crash-snapshot-')) : null;
  const started = performance.now();
  const allLogs: string[] = [];
  const secrets: Secret[] = [];
  const jwtSecret = randomBytes(48).toString('base64url');
  errorBodies.clear();
  const migrations = { seen: null as string | null };
  let runNo = 0;
  let current: Running | null = null;
  let passed = false;
  const keepLogs = (r: Running) => allLogs.push(r.out(), r.err());
  const openSql = async () => (db.databaseUrl ? postgresSql(db.databaseUrl) : pgliteSql(snapshotDir!));
  try {
    // First start: migrations and D3's demo data on an empty database.
    current = await startBuilt(db, jwtSecret, logDir, runNo++);
    figures.firstStartMs = current.healthyMs;
    expectCleanLog(current, 'first start');
    const base = () => current!.url;

    // An account of its own (so a password that is not D3's public one is in play), invited to Beacon.
    const owner = await call(base(), 'POST', '/auth/login/', { body: { email: 'owner@demo.test', password: DEMO_PASSWORD } });
    expect(owner.status).toBe(200);
    const orgs = new Map(
      ((await call(base(), 'GET', '/auth/me/', { token: owner.body.access_token as string })).body.organizations as { id: number; name: string }[]).map((o) => [
        o.name,
        o.id,
      ]),
    );
    const ownPassword = `crash-${randomBytes(12).toString('base64url')}`;
    const ownEmail = `crash-admin-${runTag}@example.test`;
    const invite = await call(base(), 'POST', '/team/invitations/', {
      token: owner.body.access_token as string,
      org: orgs.get('Beacon Electric'),
      body: { email: ownEmail, role: 'admin' },
    });
    expect(invite.status, JSON.stringify(invite.body)).toBe(201);
    const accepted = await call(base(), 'POST', `/invitations/${invite.body.token as string}/accept/`, { body: { first_name: 'Crash', password: ownPassword } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    // D53: a reset link for that account, looked up and refused a short password (both logged with its token in the path).
    const invited = (await call(base(), 'GET', '/account/', { token: accepted.body.access_token as string })).body.id as number;
    const reset = await call(base(), 'POST', `/team/members/${invited}/reset-link/`, { token: owner.body.access_token as string, org: orgs.get('Beacon Electric') });
    expect(reset.status, JSON.stringify(reset.body)).toBe(201);
    const resetPath = `/password-resets/${reset.body.token as string}/`;
    expect([(await call(base(), 'GET', resetPath)).status, (await call(base(), 'POST', resetPath, { body: { password: 'short' } })).status]).toEqual([200, 400]);
    secrets.push(
      { label: 'reset link token', value: reset.body.token as string },
      { label: 'owner access token', value: owner.body.access_token as string },
      { label: 'owner refresh token', value: owner.body.refresh_token as string },
      { label: 'invitation token', value: invite.body.token as string },
      { label: 'invited admin access token', value: accepted.body.access_token as string },
      { label: 'invited admin refresh token', value: accepted.body.refresh_token as string },
      { label: 'invited admin password', value: ownPassword },
    );
    // D54: the invited admin enrols in two-step sign-in, signs in with it and turns it off (mfa-journey.ts).
    const own = { email: ownEmail, password: ownPassword, token: accepted.body.access_token as string };
    secrets.push(...(await mfaJourney((method, p, opts) => call(base(), method, p, opts), own, Date.now)));

    const accounts: Account[] = [
      { email: 'owner@demo.test', password: DEMO_PASSWORD, org: 'Acme Plumbing', canDelete: true },
      { email: 'owner@demo.test', password: DEMO_PASSWORD, org: 'Beacon Electric', canDelete: true },
      { email: 'solo@demo.test', password: DEMO_PASSWORD, org: 'Acme Plumbing', canDelete: false }, // a member may not delete
      { email: ownEmail, password: ownPassword, org: 'Beacon Electric', canDelete: true },
    ];
    const signInNow = async (c: Client) => {
      let a = await call(base(), 'POST', '/auth/login/', { body: { email: c.account.email, password: c.account.password } });
      while (refused(a)) {
        // D2: refused unrun on a starved machine; asked again, as the app does
        figures.busy += 1;
        await sleep(1000);
        a = await call(base(), 'POST', '/auth/login/', { body: { email: c.account.email, password: c.account.password } });
      }
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      c.access = a.body.access_token as string;
      c.refresh = a.body.refresh_token as string;
      c.tokens.add(c.access).add(c.refresh);
    };
    // D35: one address has at most 2 logins in flight, and every client here speaks from loopback: one at a time.
    let signing: Promise<unknown> = Promise.resolve();
    const signIn = (c: Client): Promise<void> => {
      const mine = signing.then(() => signInNow(c));
      signing = mine.catch(() => undefined);
      return mine;
    };
    const clients: Client[] = Array.from({ length: 8 }, (_, index) => {
      const account = accounts[index % accounts.length]!;
      return {
        index,
        account,
        org: orgs.get(account.org)!,
        access: '',
        refresh: '',
        rng: prng(SEED + index * 7919),
        seq: 0,
        customers: new Map(),
        notes: [],
        pending: null,
        touched: new Set(),
        dropRefreshAnswer: false,
        droppedAnswer: false,
        tokens: new Set(),
      };
    });
    await Promise.all(clients.map(signIn));

    let ranMs = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      if (kill >= MIN_KILLS && performance.now() - started > BACKEND_BUDGET_MS) break;
      // Load, and a SIGKILL at a random moment of it.
      let dead = false;
      clients[kill % clients.length]!.dropRefreshAnswer = true;
      let firstAnswer = () => {};
      const answered = new Promise<void>((resolve) => (firstAnswer = resolve));
      const loops = clients.map((c) => clientLoop(c, base, () => dead, figures, runTag, firstAnswer));
      const failed = Promise.all(loops).then(
        () => null,
        (err: unknown) => err,
      );
      const delay = KILL_AFTER_MS[0] + rng() * (KILL_AFTER_MS[1] - KILL_AFTER_MS[0]);
      const early = await Promise.race([answered.then(() => sleep(delay)).then(() => null), failed]);
      if (early) throw early; // a client failed before the kill
      dead = true;
      current.child.kill('SIGKILL');
      const exit = await current.exited;
      expect(exit.signal).toBe('SIGKILL');
      ranMs += delay;
      figures.kills += 1;
      const killedAt = performance.now();
      const loopError = await failed;
      if (loopError) throw loopError;
      keepLogs(current);
      expectCleanLog(current, `run ${runNo - 1}`);

      // The state the crash left: PostgreSQL as it is; PGlite as a copy of the data directory. The copy
      // is checked while the server starts again on the original (PGlite starts slowly); PostgreSQL is
      // read before the server is back.
      if (snapshotDir) copyDir(db.dataDir!, snapshotDir);
      const restarting = snapshotDir ? startBuilt(db, jwtSecret, logDir, runNo++) : null;
      restarting?.catch(() => {}); // a failed start is reported where it is awaited
      let states: Awaited<ReturnType<typeof tokenStates>>;
      try {
        const sql = await openSql();
        try {
          await settlePending(sql, clients, figures);
          await checkDatabase(sql, clients, figures, { amcheck: Boolean(snapshotDir) && kill === 0, migrations });
          states = await tokenStates(sql, clients);
        } finally {
          await sql.close();
        }
      } catch (err) {
        const started = await restarting?.catch(() => null);
        if (started) {
          started.child.kill('SIGKILL');
          await started.exited;
        }
        throw err;
      }

      // Restarted on the same data: the same checks through the server.
      current = await (restarting ?? startBuilt(db, jwtSecret, logDir, runNo++));
      figures.restartMs.push(current.healthyMs);
      await checkThroughApi(base(), clients, states, figures, signIn);
      expectCleanLog(current, `restart ${kill + 1}`);
      figures.cycleMs.push(performance.now() - killedAt);
    }

    // The end: a clean stop, and the last state checked once more on the database itself.
    current.child.kill('SIGTERM');
    const exit = await current.exited;
    expect(exit.code, current.out() + current.err()).toBe(0);
    keepLogs(current);
    expectCleanLog(current, 'last run');
    current = null;
    if (snapshotDir) copyDir(db.dataDir!, snapshotDir);
    const sql = await openSql();
    let secretsChecked = '';
    try {
      await checkDatabase(sql, clients, figures, { amcheck: Boolean(snapshotDir), migrations });
      // No secret in the logs of every run (less the banner line naming the demo accounts, D3), in an
      // error answer the clients received, or in an audit entry.
      for (const c of clients) for (const t of c.tokens) secrets.push({ label: `client ${c.index} access or refresh token`, value: t });
      const checked = {
        logs: withoutDemoBanner(allLogs.join('\n').split('\n')),
        bodies: [...errorBodies.values()].flat(),
        auditRows: await auditRows(sql),
        secrets: [...(await serverSecrets(sql, jwtSecret)), ...secrets],
      };
      assertNoSecrets(checked);
      secretsChecked = `${checked.secrets.length} secrets in ${checked.logs.length} log lines, ${checked.bodies.length} error answers, ${checked.auditRows.length} audit entries`;
    } finally {
      await sql.close();
    }

    const acked = Object.values(figures.acknowledged).reduce((a, b) => a + b, 0);
    const sorted = [...figures.restartMs].sort((a, b) => a - b);
    console.log(
      `[crash ${label}] seed ${SEED}: ${figures.kills} kills in ${(ranMs / 1000).toFixed(1)} s of load; ` +
        `${acked} writes acknowledged ${JSON.stringify(figures.acknowledged)}; ` +
        `verified ${JSON.stringify(figures.verified)}; in doubt at a kill: ${figures.uncertain.applied} applied, ${figures.uncertain.notApplied} not; ` +
        `refresh after restart ${JSON.stringify(figures.refreshAfterRestart)} (${figures.droppedRefreshAnswers} answers dropped on purpose); 503 busy ${figures.busy}; ` +
        `no secret out (${secretsChecked}); first start ${figures.firstStartMs.toFixed(0)} ms, kill to checked ${figures.cycleMs.map((m) => (m / 1000).toFixed(1)).join('/')} s, restart (spawn to healthy) min ${sorted[0]?.toFixed(0)} / median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} / max ${sorted.at(-1)?.toFixed(0)} ms; ` +
        `total ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(figures.kills).toBeGreaterThanOrEqual(MIN_KILLS);
    expect(figures.acknowledged.create).toBeGreaterThan(0);
    passed = true;
    return figures;
  } finally {
    if (current) {
      current.child.kill('SIGKILL');
      await current.exited;
    }
    if (snapshotDir) rmSync(snapshotDir, { recursive: true, force: true });
    if (passed) rmSync(logDir, { recursive: true, force: true });
    else console.log(`[crash ${label}] the server's logs are kept in ${logDir}`);
  }
}
