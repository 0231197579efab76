// D2: PGlite has one writer and no lock of its own; the server's lock file on its data directory.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

const LOCK_FILE = 'server.lock';

/** Lock files this process holds: its own pid in a lock file it does not hold is a dead process's. */
const heldLocks = new Set<string>();

/**
 * PGlite has one writer and no lock of its own: two processes on one data directory would corrupt it.
 * A pid file refuses a second server while the first is alive and is taken over when stale. A server
 * killed outright (SIGKILL, out of memory) leaves its file behind; the next start may well have the
 * same pid (a container's server is pid 1 every time), which is stale unless this process holds it.
 */
export function lockDataDir(dir: string): () => void {
  const file = path.resolve(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldLocks.add(file);
      return () => {
        heldLocks.delete(file);
        rmSync(file, { force: true });
      };
    } catch (err) {
      if (!(err instanceof Error && 'code' in err && err.code === 'EEXIST')) throw err;
    }
    const pid = Number(readFileSync(file, 'utf8').trim());
    const inUse = pid === process.pid ? heldLocks.has(file) : Number.isInteger(pid) && pid > 0 && processAlive(pid);
    if (inUse) {
      throw new Error(`the data directory ${dir} is in use by process ${pid}; stop it or choose another DATA_DIR`);
    }
    rmSync(file, { force: true }); // stale: its process is gone
  }
  throw new Error(`could not lock the data directory ${dir}`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err instanceof Error && 'code' in err && err.code === 'EPERM';
  }
}
