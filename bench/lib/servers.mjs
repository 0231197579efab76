// Child processes for the benchmarks: the built API server (`node dist/server/main.mjs`) and the bare
// node:http server that answers the same bytes (bare-server.mjs). Each writes its output to a log file
// in its own temp directory (never a pipe the benchmark would have to drain), and counts as started
// when its "listening on http" line appears there. Children still running when the benchmark exits are
// killed.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_MAIN = path.join(root, 'dist/server/main.mjs');
const BARE_SERVER = path.join(root, 'bench/lib/bare-server.mjs');
const READY = /listening on http/;
const START_TIMEOUT_MS = 120_000; // first start on PGlite: initdb, migrations and four OWASP-cost hashes
const STOP_TIMEOUT_MS = 10_000;
const POLL_MS = 10;
/** SERVER_NODE_ARGS: node's own flags for the servers started, e.g. '--cpu-prof --cpu-prof-dir=prof' to see where a scenario's time goes (NODE_OPTIONS refuses --cpu-prof). */
const nodeArgs = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);

const live = new Set();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export function tempDir(prefix) {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node script ...args` with PORT and HOST set; resolves once it prints its listening line, with
 * pid, url, the time start-up took, its output so far, and stop().
 */
export async function spawnServer({ script, args = [], env = {}, label = path.basename(script) }) {
  const port = await freePort();
  const dir = tempDir('crm-bench-log-');
  const logFile = path.join(dir, 'output.log');
  const fd = openSync(logFile, 'w');
  const t0 = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  live.add(child);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let exitInfo = null;
  void exited.then((info) => {
    exitInfo = info;
    live.delete(child);
  });
  /** The whole output once stopped (the log file is gone then). */
  let finalOutput = null;
  const output = () => finalOutput ?? (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  const stop = async () => {
    if (!exitInfo) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    finalOutput = output();
    rmSync(dir, { recursive: true, force: true });
    return exitInfo;
  };
  for (;;) {
    if (READY.test(output())) break;
    if (exitInfo) {
      const text = output();
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`${label} exited (${exitInfo.code ?? exitInfo.signal}) before listening:\n${text}`);
    }
    if (performance.now() - t0 > START_TIMEOUT_MS) {
      const text = output();
      await stop();
      throw new Error(`${label} did not start within ${START_TIMEOUT_MS} ms:\n${text}`);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return {
    pid: child.pid,
    port,
    url: `http://127.0.0.1:${port}`,
    startMs: performance.now() - t0,
    output,
    exited: () => exitInfo,
    stop,
  };
}

/**
 * The built API server on PGlite in `dataDir`, or on PostgreSQL at `databaseUrl`. SEED=demo by default.
 * `env` adds variables (e.g. a cheaper setting the benchmark documents).
 */
export function startCrm({ dataDir = null, databaseUrl = null, seed = 'demo', env = {} }) {
  if (!existsSync(SERVER_MAIN)) throw new Error(`${path.relative(root, SERVER_MAIN)} is missing; build first`);
  return spawnServer({
    script: SERVER_MAIN,
    label: 'API server',
    env: { DATA_DIR: dataDir ?? '', DATABASE_URL: databaseUrl ?? '', SEED: seed, ...env },
  });
}

/**
 * A bare node:http server answering each path with a captured answer: `answers` maps a path (no query)
 * to { status, rawHeaders, body } as http.mjs request() returned them.
 */
export async function startBare(answers, env = {}) {
  const dir = tempDir('crm-bench-bare-');
  const file = path.join(dir, 'answers.json');
  const plain = Object.fromEntries(Object.entries(answers).map(([p, a]) => [p, { status: a.status, rawHeaders: a.rawHeaders, body: a.body.toString('base64') }]));
  writeFileSync(file, JSON.stringify(plain));
  try {
    const server = await spawnServer({ script: BARE_SERVER, args: [file], env, label: 'bare server' });
    const stopServer = server.stop;
    const stop = async () => {
      const info = await stopServer();
      rmSync(dir, { recursive: true, force: true });
      return info;
    };
    return { ...server, stop };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
