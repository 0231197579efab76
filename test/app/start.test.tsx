// The app's boot (app/start.tsx) on a cold load of the login page: nothing but the login form competes
// with it. The first bundle draws the form before the rest of the app's code (app/boot.tsx) arrives, and
// the form keeps what was typed when it does. The next screen's code is preloaded only with a stored
// session (app/preload.ts), and error reporting (D13) starts once the browser is idle, not as the first
// screen loads.
import { act, fireEvent, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAGE_LOAD_FAILED } from '../../src/lib/chunk-error';
import { REST_STYLES_ID } from '../../src/lib/styles';

const preloadScreen = vi.fn();
const startTelemetry = vi.fn(async () => false);
vi.mock('../../src/app/preload', async (original) => ({ ...(await original<object>()), preloadScreen }));
vi.mock('../../src/telemetry', async (original) => ({ ...(await original<object>()), startTelemetry }));
/** The rest of the app's code arrives once `gate` has resolved; `failures` times it fails to load first. */
const rest = { gate: Promise.resolve(), failures: 0 };

let idle: Array<() => void>;

beforeEach(() => {
  vi.resetModules();
  preloadScreen.mockClear();
  startTelemetry.mockClear();
  idle = [];
  rest.gate = Promise.resolve();
  rest.failures = 0;
  // Each test's own (vi.mock's module would outlive vi.resetModules, and its React contexts with it).
  vi.doMock('../../src/app/boot', async (original) => {
    await rest.gate;
    if (rest.failures > 0) {
      rest.failures--;
      throw new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/boot.js');
    }
    return original();
  });
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
/** A bound for a busy machine; the waits look again every 5 ms (at 50, the default, they were half this file's time). */
const UNTIL = { timeout: 10_000, interval: 5 };
/** The rest of the app has arrived and filled the frame (its route announcer is one of its parts). */
const arrived = () => vi.waitFor(() => expect(document.getElementById('route-announcer')).toBeTruthy(), UNTIL);
/** Holds the rest of the app's code back; the function lets it arrive. */
function holdRest(): () => void {
  let release!: () => void;
  rest.gate = new Promise((r) => (release = r));
  return release;
}

describe('boot on the login page', () => {
  it('with no stored session, no code of the next screen is preloaded: the login form is all that loads', async () => {
    await boot();
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeTruthy();
    await arrived();
    for (const run of idle) run();
    expect(preloadScreen).not.toHaveBeenCalled();
  });

  it('with a stored session, the code of the screen at the path is preloaded beside the session load', async () => {
    localStorage.setItem('refresh_token', 'stored');
    history.replaceState(null, '', '/customers');
    await boot();
    await vi.waitFor(() => expect(preloadScreen).toHaveBeenCalledWith('/customers', expect.objectContaining({ client: expect.anything() })), UNTIL); // and the session, for the page's data (prefetch.ts)
  });

  it('D13 error reporting starts once the browser is idle after the first screen, not as it renders', async () => {
    await boot();
    await screen.findByRole('button', { name: 'Log In' });
    await arrived();
    expect(startTelemetry).not.toHaveBeenCalled();
    expect(idle).toHaveLength(1);
    idle[0]!();
    expect(startTelemetry).toHaveBeenCalledTimes(1);
  });

  it("SPEC §2 with no stored session the form is usable before the rest of the app's code arrives, and keeps the typing, focus and caret when it does", async () => {
    const release = holdRest();
    await boot();
    const email = screen.getByLabelText<HTMLInputElement>('Email');
    const password = screen.getByLabelText<HTMLInputElement>('Password');
    expect(screen.getByRole('button', { name: 'Log In' }).hasAttribute('disabled')).toBe(false);
    expect(document.getElementById('route-announcer')).toBeNull(); // the rest has not arrived
    fireEvent.change(email, { target: { value: 'sam@example.com' } });
    fireEvent.change(password, { target: { value: 'half-typed' } });
    password.focus();
    password.setSelectionRange(2, 5);
    release();
    await arrived();
    expect(screen.getByLabelText('Email')).toBe(email); // the same elements: React kept the form
    expect(screen.getByLabelText('Password')).toBe(password);
    expect(email.value).toBe('sam@example.com');
    expect(password.value).toBe('half-typed');
    expect(document.activeElement).toBe(password);
    expect([password.selectionStart, password.selectionEnd]).toEqual([2, 5]);
  });

  it('SPEC §2 a Log In pressed before the rest of the app has arrived goes out once it has, once', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      calls.push(String(url));
      return new Promise(() => undefined);
    });
    const release = holdRest();
    await boot();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sam@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('button', { name: 'Logging in…' })).toBeTruthy();
    expect(calls).toEqual([]);
    release();
    await vi.waitFor(() => expect(calls.filter((c) => c.endsWith('/v1/auth/login/'))).toHaveLength(1), UNTIL);
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('sam@example.com');
  });

  it("D40 the rest of the app's code failing to load at another address says so with Retry, and Retry loads it", async () => {
    rest.failures = 1;
    history.replaceState(null, '', '/dashboard');
    await boot();
    const alert = await screen.findByRole('alert', {}, UNTIL);
    expect(alert.textContent).toContain(PAGE_LOAD_FAILED);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await arrived();
    expect(screen.queryByText(PAGE_LOAD_FAILED)).toBeNull();
  });

  it("D40 the rest of the app's code that could not load is loaded again by itself when the connection comes back", async () => {
    rest.failures = 1;
    history.replaceState(null, '', '/dashboard');
    await boot();
    await screen.findByRole('alert', {}, UNTIL);
    act(() => void window.dispatchEvent(new Event('online')));
    await arrived();
    expect(screen.queryByText(PAGE_LOAD_FAILED)).toBeNull();
  });

  it('D40 on the drawn login form a failed load leaves the form as it is; its Log In loads the rest again', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      calls.push(String(url));
      return new Promise(() => undefined);
    });
    rest.failures = 1;
    await boot();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sam@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(screen.queryByText(PAGE_LOAD_FAILED)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.endsWith('/v1/auth/login/'))).toHaveLength(1), UNTIL);
  });
});

// The page blocks its first paint on the login form's styles only (static/login.css); its link names the
// rest's file (build.mjs), which loads beside the rest of the app's start (lib/styles.ts). Here the
// stylesheet is an element whose load the test ends, as the browser would.
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
  /** The stylesheet the inline script (src/boot/preload.js) adds beside the rest of the app's start, still loading. */
  function askedEarly(): HTMLLinkElement {
    const link = document.createElement('link');
    link.id = REST_STYLES_ID;
    link.rel = 'stylesheet';
    link.addEventListener('load', () => (link.dataset.state = 'loaded'));
    link.addEventListener('error', () => (link.dataset.state = 'failed'));
    document.head.append(link);
    return link;
  }
  const restLinks = () => [...document.querySelectorAll<HTMLLinkElement>(`#${REST_STYLES_ID}`)];

  it('nothing but the login form is drawn before they apply: the rest of the app waits for them, and uses the stylesheet the page asked for', async () => {
    const early = askedEarly();
    history.replaceState(null, '', '/dashboard');
    await boot();
    await act(() => new Promise((r) => setTimeout(r, 50))); // the rest's code has arrived by now
    expect(document.getElementById('route-announcer')).toBeNull();
    act(() => void early.dispatchEvent(new Event('load')));
    await arrived();
    expect(restLinks()).toEqual([early]); // asked for once
  });

  it('at /login with no stored session the start asks for them itself, after the login form, in the cascade after its styles', async () => {
    settings().handleDisabledFileLoadingAsSuccess = true;
    await boot();
    expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy();
    await arrived();
    const [link] = restLinks();
    expect(link?.getAttribute('href')).toBe(REST);
    expect(link?.rel).toBe('stylesheet');
    expect(document.head.lastElementChild).toBe(link); // after the login form's link
  });

  it('D40 failing to load at another address says so with Retry, and Retry asks for them again', async () => {
    const early = askedEarly();
    history.replaceState(null, '', '/dashboard');
    await boot();
    act(() => void early.dispatchEvent(new Event('error')));
    const alert = await screen.findByRole('alert', {}, UNTIL);
    expect(alert.textContent).toContain(PAGE_LOAD_FAILED);
    settings().handleDisabledFileLoadingAsSuccess = true; // the file loads this time
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await arrived();
    expect(restLinks().map((l) => l.getAttribute('href'))).toEqual([REST]); // a new request, the failed one gone
    expect(early.isConnected).toBe(false);
  });
});
