// The app's boot (app/start.tsx) on a cold load of the login page: nothing but the login form competes
// with it. The next screen's code is preloaded only with a stored session (app/preload.ts), and error
// reporting (D13) starts once the browser is idle, not as the first screen loads.
import { act, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const preloadScreen = vi.fn();
const startTelemetry = vi.fn(async () => false);
vi.mock('../../src/app/preload', async (original) => ({ ...(await original<object>()), preloadScreen }));
vi.mock('../../src/telemetry', async (original) => ({ ...(await original<object>()), startTelemetry }));

let idle: Array<() => void>;

beforeEach(() => {
  vi.resetModules();
  preloadScreen.mockClear();
  startTelemetry.mockClear();
  idle = [];
  vi.stubGlobal('requestIdleCallback', (cb: () => void) => idle.push(cb));
  // A stored session's current-user call stays unanswered: these tests are about what starts, not the answer.
  vi.stubGlobal('fetch', () => new Promise(() => undefined));
  document.body.innerHTML = '<div id="root"></div>';
  history.replaceState(null, '', '/login');
});

// The app booted by a test is unmounted after it: a root left mounted kept its route focus, listeners
// and session alive in this worker's window, and took the focus in a later file's test.
let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

async function boot() {
  const { start } = await import('../../src/app/start');
  await act(async () => {
    root = start();
  });
}

describe('boot on the login page', () => {
  it('with no stored session, no code of the next screen is preloaded: the login form is all that loads', async () => {
    await boot();
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeTruthy();
    await act(() => new Promise((r) => setTimeout(r, 20)));
    for (const run of idle) run();
    expect(preloadScreen).not.toHaveBeenCalled();
  });

  it('with a stored session, the code of the screen at the path is preloaded beside the session load', async () => {
    localStorage.setItem('refresh_token', 'stored');
    history.replaceState(null, '', '/customers');
    await boot();
    expect(preloadScreen).toHaveBeenCalledWith('/customers', expect.objectContaining({ store: expect.anything() })); // and the session, for the page's data (prefetch.ts)
  });

  it('D13 error reporting starts once the browser is idle after the first screen, not as it renders', async () => {
    await boot();
    await screen.findByRole('button', { name: 'Log In' });
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(startTelemetry).not.toHaveBeenCalled();
    expect(idle).toHaveLength(1);
    idle[0]!();
    expect(startTelemetry).toHaveBeenCalledTimes(1);
  });
});
