import { afterEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import { bufferEarlyErrors, captureError, resetTelemetry, startTelemetry } from '../../src/telemetry/index';

afterEach(() => {
  resetTelemetry();
  delete (globalThis as { __APP_CONFIG__?: unknown }).__APP_CONFIG__;
});

function fakeReporter() {
  const sent: unknown[] = [];
  const initSentry = vi.fn(() => (e: unknown) => void sent.push(e));
  return { sent, initSentry, load: vi.fn(async () => ({ initSentry })) };
}

const throwInWindow = (error: Error) => window.dispatchEvent(new ErrorEvent('error', { error, message: error.message }));
const rejectInWindow = (reason: unknown) => {
  const e = new Event('unhandledrejection') as Event & { reason: unknown };
  e.reason = reason;
  window.dispatchEvent(e);
};

describe('startTelemetry (D13)', () => {
  it('D13 without a DSN nothing is loaded', async () => {
    const r = fakeReporter();
    expect(await startTelemetry({ load: r.load })).toBe(false);
    expect(r.load).not.toHaveBeenCalled();
  });

  it('D13 the DSN comes from window.__APP_CONFIG__.sentryDsn and the reporter is loaded with it', async () => {
    (globalThis as { __APP_CONFIG__?: unknown }).__APP_CONFIG__ = { apiBase: '/api', sentryDsn: 'https://k@sentry.example.test/1' };
    const r = fakeReporter();
    expect(await startTelemetry({ load: r.load })).toBe(true);
    expect(r.initSentry).toHaveBeenCalledWith('https://k@sentry.example.test/1');
  });

  it('D13 errors and rejections from before it loaded are kept and reported once it loads', async () => {
    bufferEarlyErrors();
    const early = new Error('before render');
    throwInWindow(early);
    rejectInWindow('rejected early');
    let finish!: () => void;
    const gate = new Promise<void>((r) => (finish = r));
    const r = fakeReporter();
    const started = startTelemetry({ dsn: 'https://k@sentry.example.test/1', load: async () => (await gate, r.load()) });
    const boundary = new Error('caught by the error boundary');
    captureError(boundary);
    expect(r.sent).toEqual([]);
    finish();
    await started;
    expect(r.sent).toEqual([early, 'rejected early', boundary]);
    // From now on Sentry's own handlers see window errors; ours stopped listening (no duplicates).
    throwInWindow(new Error('later'));
    expect(r.sent).toHaveLength(3);
    captureError('later boundary error');
    expect(r.sent).toHaveLength(4);
  });

  it('a reporter chunk that fails to load leaves the app running without reporting', async () => {
    bufferEarlyErrors();
    throwInWindow(new Error('x'));
    expect(await startTelemetry({ dsn: 'https://k@sentry.example.test/1', load: () => Promise.reject(new Error('offline')) })).toBe(false);
  });
});
