// D34 D35: long work in one call gives the event loop back every few milliseconds (server/turns.ts), so a
// timer, another member's request or the health check runs in the middle of a 10,000-row import.
import { expect, test } from 'vitest';
import { takeTurns } from '../../server/turns';

/** Holds the event loop for about `ms` without giving it back. */
const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

test('D34 long work awaiting takeTurns() lets a timer run within a few milliseconds, not after the work', async () => {
  const turn = takeTurns();
  const start = performance.now();
  let firedAt: number | null = null;
  setTimeout(() => (firedAt = performance.now() - start), 0);
  while (performance.now() - start < 200) {
    await turn();
    busy(1);
  }
  expect(firedAt).not.toBeNull();
  expect(firedAt!).toBeLessThan(50);
});

test('D34 takeTurns() gives no turn before its few milliseconds have passed (short work is not slowed by turns)', async () => {
  const turn = takeTurns();
  let fired = false;
  setImmediate(() => (fired = true));
  for (let i = 0; i < 100; i++) await turn();
  expect(fired).toBe(false);
});
