// The app's start (main.tsx): `me` goes out at once; the code of the screen at this address is preloaded
// only with a stored session (app/App.tsx preloadScreen); error reporting (D13) and the session's watchers
// start once the browser is idle; every screen but the login form waits for the rest of the styles.
import { act, fireEvent, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAGE_LOAD_FAILED } from '../../src/lib/chunk-error';
import { REST_STYLES_ID } from '../../src/lib/styles';

const preloadScreen = vi.fn();
const startTelemetry = vi.fn(async () => false);
vi.mock('../../src/telemetry', async (original) => ({ ...(await original<object>()), startTelemetry }));

let idle: Array<() => void>;
let calls: string[];

beforeEach(() => {
  vi.resetModules();
  preloadScreen.mockClear();
  startTelemetry.mockClear();
  vi.doMock('../../src/app/App', async (original) => ({ ...(await original<object>()), preloadScreen }));
  idle = [];
  calls = [];
  vi.stubGlobal('requestIdleCallback', (cb: () => void) => idle.push(cb));
  // Calls stay unanswered: these tests are about what starts, not the answers.
  vi.stubGlobal('fetch', (url: string) => {
    calls.push(String(url));
    return new Promise(() => undefined);
  });
  document.body.innerHTML = '<div id="root"></div>';
  history.replaceState(null, '', '/login');
});

// The app started by a test is unmounted after it: a root left mounted kept its route focus, listeners
// and session alive in this worker's window, and took the focus in a later file's test.
let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
  localStorage.clear();
});

async function start() {
  await act(async () => {
    root = (await import('../../src/main')).root;
  });
}
const UNTIL = { timeout: 10_000, interval: 5 };
const WELL_FORMED = `e30.${btoa(JSON.stringify({ sub: '1', exp: Math.floor(Date.now() / 1000) + 3600 })).replace(/=+$/, '')}.c2ln`;

describe('the start on the login page', () => {
  it('SPEC §2 with no stored session the login form is drawn, and no code of a next screen is preloaded', async () => {
    await start();
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeTruthy();
    for (const run of idle) run();
    expect(preloadScreen).not.toHaveBeenCalled();
    expect(calls).toEqual([]);
  });

  it('SPEC §4 with a stored session the current-user call goes out at once, and the code of the screen at the path beside it', async () => {
    localStorage.setItem('access_token', WELL_FORMED);
    history.replaceState(null, '', '/customers');
    await start();
    expect(calls.filter((c) => c.endsWith('/v1/auth/me/'))).toHaveLength(1);
    expect(preloadScreen).toHaveBeenCalledWith('/customers');
  });

  it('D13 error reporting starts once the browser is idle after the first screen, not as it renders', async () => {
    await start();
    await screen.findByRole('button', { name: 'Log In' });
    expect(startTelemetry).not.toHaveBeenCalled();
    expect(idle.length).toBeGreaterThan(0);
    for (const run of idle) run();
    expect(startTelemetry).toHaveBeenCalledTimes(1);
  });
});

// The page blocks its first paint on the login form's styles only (static/login.css); its link names the
// rest's file (build.mjs), which main.tsx asks for at start (lib/styles.ts). Here the stylesheet is an
// element whose load the test ends, as the browser would.
describe("the rest of the app's styles", () => {
  const REST = '/assets/app-REST.css';
  type Settings = { handleDisabledFileLoadingAsSuccess: boolean };
  const settings = () => (window as unknown as { happyDOM: { settings: Settings } }).happyDOM.settings;
  let loads: boolean;
  beforeEach(() => {
    loads = settings().handleDisabledFileLoadingAsSuccess;
    const login = document.createElement('link'); // no rel: the test window fetches nothing
    login.dataset.rest = REST;
    document.head.append(login);
  });
  afterEach(() => {
    settings().handleDisabledFileLoadingAsSuccess = loads;
    for (const l of document.head.querySelectorAll('link')) l.remove();
  });
  const restLink = () => document.getElementById(REST_STYLES_ID) as HTMLLinkElement;
  /** The stylesheet's element, still loading (no rel: the test window fetches nothing), as a load asked for already leaves it. */
  function loading(): HTMLLinkElement {
    const link = document.createElement('link');
    link.id = REST_STYLES_ID;
    link.addEventListener('load', () => (link.dataset.state = 'loaded'));
    link.addEventListener('error', () => (link.dataset.state = 'failed'));
    document.head.append(link);
    return link;
  }

  it('SPEC §2 the login form is drawn before they apply; the start asks for them once, in the cascade after its styles', async () => {
    settings().handleDisabledFileLoadingAsSuccess = true;
    await start();
    expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy();
    expect(restLink().getAttribute('href')).toBe(REST);
    expect(document.head.lastElementChild).toBe(restLink());
    expect(document.querySelectorAll(`#${REST_STYLES_ID}`)).toHaveLength(1);
  });

  it('SPEC §2 any other screen waits for them behind the spinner', async () => {
    const link = loading();
    history.replaceState(null, '', '/invite/abc');
    await start();
    expect(screen.getByText('Checking session...')).toBeTruthy();
    act(() => void link.dispatchEvent(new Event('load')));
    await vi.waitFor(() => expect(screen.queryByText('Checking session...')).toBeNull(), UNTIL);
  });

  it('D40 failing to load says so with Retry, and Retry asks for them again; coming back online does too', async () => {
    const failed = loading();
    history.replaceState(null, '', '/invite/abc');
    await start();
    act(() => void failed.dispatchEvent(new Event('error')));
    expect((await screen.findByRole('alert', {}, UNTIL)).textContent).toContain(PAGE_LOAD_FAILED);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' })); // a new request (that fails: loading is off here)
    await vi.waitFor(() => expect(restLink()).not.toBe(failed), UNTIL);
    expect(failed.isConnected).toBe(false);
    await screen.findByRole('alert', {}, UNTIL);
    settings().handleDisabledFileLoadingAsSuccess = true; // the file loads this time
    act(() => void window.dispatchEvent(new Event('online')));
    await vi.waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), UNTIL);
  });
});
