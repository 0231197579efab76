// The browser suite's world: Debian's Chromium, and the real product started by `npm start` on a
// fresh temporary data directory and a free port. Shared by every journey through provide/inject.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from '../../server/server';
import { createUser } from '../server/helpers';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const START_TIMEOUT_MS = 120_000;

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    chromium: string;
    /** Empty when the suite can run; otherwise why it cannot. */
    skipReason: string;
    /** D60 D67: the owner of an organization with nothing in it yet (no API makes one), for the move-in journey. */
    mover: { email: string; password: string; org: string };
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The product's own start on the data directory (migrations, the demo seed), then, as a business that
 * signs up would have it, an organization of its own with its owner and nothing else; then it stops, and
 * `npm start` finds the database ready.
 */
async function newOrganization(dataDir: string) {
  const server = await startServer({
    env: { ...process.env, NODE_ENV: 'production' },
    dataDir,
    port: 0,
    host: '127.0.0.1',
    seed: 'demo',
    log: { info: () => {}, error: (m) => console.error(m) },
  });
  try {
    const org = 'Fresh Start Heating';
    await server.db.query('insert into organizations (name) values ($1)', [org]);
    const owner = await createUser(server.db, { memberships: [[org, 'owner']] });
    return { email: owner.email, password: owner.password, org };
  } finally {
    await server.close();
  }
}

export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM)) {
    const msg = `\n*** BROWSER SUITE NOT RUN: no Chromium at ${CHROMIUM} (apt-get install -y chromium) ***\n`;
    if (process.env.CI) throw new Error(msg); // under CI a missing browser is a failure, never a pass
    console.warn(msg);
    project.provide('skipReason', `no Chromium at ${CHROMIUM}`);
    project.provide('baseURL', '');
    project.provide('chromium', CHROMIUM);
    return () => console.warn(msg); // said again after the run, where it cannot scroll out of sight
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'crm-e2e-'));
  project.provide('mover', await newOrganization(dataDir));
  const port = await freePort();
  const child: ChildProcess = spawn('npm', ['start'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so teardown stops npm and the server together
  });
  let output = '';
  const baseURL = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1].replace(/\/$/, ''));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
  });
  project.provide('baseURL', baseURL);
  project.provide('chromium', CHROMIUM);
  project.provide('skipReason', '');
  return async () => {
    if (child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    }
    await new Promise((r) => setTimeout(r, 300));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
