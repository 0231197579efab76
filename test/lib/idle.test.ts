import { describe, expect, it, vi } from 'vitest';
import { IDLE_FALLBACK_MS, IDLE_TIMEOUT_MS, whenIdle } from '../../src/lib/idle';

describe('whenIdle', () => {
  it('runs the work on the next idle callback, with a deadline', () => {
    const fn = vi.fn();
    const requestIdleCallback = vi.fn();
    whenIdle(fn, { requestIdleCallback, setTimeout: vi.fn() } as never);
    expect(fn).not.toHaveBeenCalled();
    expect(requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: IDLE_TIMEOUT_MS });
    requestIdleCallback.mock.calls[0]![0]();
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('without requestIdleCallback, runs it a while later instead', () => {
    vi.useFakeTimers();
    try {
      const fn = vi.fn();
      whenIdle(fn, { setTimeout: globalThis.setTimeout } as never);
      vi.advanceTimersByTime(IDLE_FALLBACK_MS - 1);
      expect(fn).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(fn).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
