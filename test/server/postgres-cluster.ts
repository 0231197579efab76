// A throwaway PostgreSQL server for the suite: initdb into a temp dir, listen on a free loopback port,
// stop and delete it afterwards. PostgreSQL refuses to run as root, so as root it runs as the
// `postgres` OS user (created by the distribution's package).
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const START_TIMEOUT_S = 30;
/** Debian and Ubuntu put each major version's server binaries here. */
const DEBIAN_LAYOUT = '/usr/lib/postgresql';

export interface Cluster {
  url: string;
  stop(): Promise<void>;
}

/** The directory holding initdb, pg_ctl and postgres, or null. PG_BIN overrides the search. */
export function findPostgresBin(): string | null {
  const has = (dir: string) => ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(path.join(dir, b)));
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(dir);
  if (existsSync(DEBIAN_LAYOUT)) {
    const versions = readdirSync(DEBIAN_LAYOUT)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(path.join(DEBIAN_LAYOUT, v, 'bin'));
  }
  return candidates.find(has) ?? null;
}

/** A port free on loopback right now (the OS picks it). */
export function freePort(): Promise<number> {
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

async function osUser(name: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export async function startCluster(bin: string): Promise<Cluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-pg-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = await osUser('postgres');
    chownSync(dir, uid, gid);
  }
  // As root: run each command as the postgres user (runuser is util-linux; su as a fallback).
  const exec = async (cmd: string, args: string[]) => {
    const file = path.join(bin, cmd);
    if (!asRoot) return run(file, args);
    if (existsSync('/usr/sbin/runuser') || existsSync('/sbin/runuser')) return run('runuser', ['-u', 'postgres', '--', file, ...args]);
    const quoted = [file, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    return run('su', ['postgres', '-s', '/bin/sh', '-c', quoted]);
  };
  const port = await freePort();
  try {
    await exec('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    await exec('pg_ctl', ['-D', data, '-l', log, '-w', '-t', String(START_TIMEOUT_S), '-o', serverOptions, 'start']);
  } catch (err) {
    const serverLog = existsSync(log) ? readFileSync(log, 'utf8') : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL: ${err instanceof Error ? err.message : String(err)}\n${serverLog}`);
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
