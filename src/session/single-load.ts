// SPEC §4 Session load runs one at a time: a second caller polls while the first runs and, after
// more than LOAD_MAX_TRIES polls (about 3 s), forces its way through, so a stuck load never blocks for good.
import { sleep } from '../lib/time';

/** SPEC §4 / §9: poll every 100 ms while another load runs; force it after more than 30 tries. */
export const LOAD_POLL_MS = 100;
export const LOAD_MAX_TRIES = 30;

/** Wraps `run` so that concurrent calls wait for the running one instead of starting their own. */
export function singleLoad(run: () => Promise<void>, warn: (message: string) => void): () => Promise<void> {
  let running: symbol | null = null;
  return async () => {
    if (running) {
      for (let tries = 0; running && tries <= LOAD_MAX_TRIES; tries++) await sleep(LOAD_POLL_MS);
      if (!running) return;
      warn('Session load still running after waiting; forcing a new one');
    }
    const mine = Symbol('load');
    running = mine;
    try {
      await run();
    } finally {
      if (running === mine) running = null;
    }
  };
}
