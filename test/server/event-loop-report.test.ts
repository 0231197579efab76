// D34: the event-loop delay report the fair-share bench reads (server/event-loop-report.ts). Off unless
// EVENT_LOOP_REPORT=1; on, each SIGUSR2 prints (a moment later) one JSON line with the delay since the previous one.
import { afterEach, expect, test } from 'vitest';
import { EVENT_LOOP_SIGNAL, reportEventLoopDelay, type EventLoopReport } from '../../server/event-loop-report';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
});

test('D34 without EVENT_LOOP_REPORT=1 nothing is sampled and the signal is not handled', () => {
  const before = process.listenerCount(EVENT_LOOP_SIGNAL);
  const lines: string[] = [];
  for (const value of [undefined, '', '0', 'true']) {
    expect(reportEventLoopDelay({ EVENT_LOOP_REPORT: value }, (l) => lines.push(l))).toBeNull();
  }
  expect(process.listenerCount(EVENT_LOOP_SIGNAL)).toBe(before);
  expect(lines).toEqual([]);
});

test('D34 with EVENT_LOOP_REPORT=1 the signal prints one JSON line with the delay since the last one', async () => {
  const before = process.listenerCount(EVENT_LOOP_SIGNAL);
  const lines: string[] = [];
  stop = reportEventLoopDelay({ EVENT_LOOP_REPORT: '1' }, (l) => lines.push(l));
  expect(stop).not.toBeNull();
  expect(process.listenerCount(EVENT_LOOP_SIGNAL)).toBe(before + 1);
  await sleep(50);
  // Hold the loop for 150 ms: the delay seen is at least that long (a busy machine only adds to it).
  const t0 = Date.now();
  while (Date.now() - t0 < 150);
  process.emit(EVENT_LOOP_SIGNAL); // at once, as a signal that waited for the block would be
  expect(lines).toHaveLength(0);
  await sleep(100);
  expect(lines).toHaveLength(1);
  const first = (JSON.parse(lines[0] ?? '') as EventLoopReport).event_loop_delay_ms;
  expect(first.max).toBeGreaterThanOrEqual(140);
  expect(first.samples).toBeGreaterThan(0);
  // One line per signal.
  process.emit(EVENT_LOOP_SIGNAL);
  await sleep(100);
  expect(lines).toHaveLength(2);
  stop?.();
  stop = null;
  expect(process.listenerCount(EVENT_LOOP_SIGNAL)).toBe(before);
});
