// Memory and CPU of another process, from /proc (Linux): VmRSS (resident now), VmHWM (peak resident since
// start, or since resetPeak), and user+system CPU seconds (of one process, or of a PostgreSQL server).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const CLOCK_TICKS_PER_S = 100; // USER_HZ; 100 on every common Linux build

/** { rss, hwm } in bytes, or null when the process is gone. */
export function memoryOf(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Resets VmHWM to the current RSS (Linux ≥ 4.0); false when not allowed or not supported. */
export function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** A process's parent and CPU seconds (user + system), or null when it is gone. */
function statOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After "pid (comm) ": state is field 3, ppid 4, utime 14, stime 15 → indexes 1, 11 and 12 here.
    return { ppid: fields[1], cpuS: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S };
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) the process has used, or NaN. */
export function cpuSecondsOf(pid) {
  return statOf(pid)?.cpuS ?? NaN;
}

/** Samples RSS every `everyMs` until stopped; max is the highest sample (a fallback for VmHWM). */
export function sampleRss(pid, everyMs = 10) {
  let max = 0;
  const take = () => {
    const m = memoryOf(pid);
    if (m && m.rss > max) max = m.rss;
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return max;
    },
  };
}

export const mb = (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : '-');

/**
 * CPU seconds (user + system) of the PostgreSQL server listening on `port` (its postmaster and every
 * process it started: the backends doing the queries), or NaN when it cannot be found.
 */
export function postgresCpuSeconds(port) {
  let pids;
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return NaN;
  }
  const master = pids.find((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const at = args.indexOf('-p');
      return /\bpostgres$/.test(args[0] ?? '') && at > 0 && args[at + 1] === String(port);
    } catch {
      return false;
    }
  });
  if (!master) return NaN;
  let total = 0;
  for (const pid of pids) {
    const stat = statOf(pid); // null: ended meanwhile
    if (stat && (pid === master || stat.ppid === master)) total += stat.cpuS;
  }
  return total;
}
