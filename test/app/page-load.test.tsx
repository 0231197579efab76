// D40 a page whose code cannot load: the page area says so with Retry (the shell around it stays),
// coming back online retries by itself, a file removed by a deployment reloads the app once at the
// same address and never in a loop; a rendering crash still reaches the full-screen error (SPEC §2).
import { act, fireEvent, render, screen } from '@testing-library/react';
import { lazy, Suspense, type ComponentType } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isChunkError, PAGE_LOAD_FAILED, PageLoadBoundary, pageLoaded, RELOAD_MARK } from '../../src/app/page-load';
import { stylesFailed } from '../../src/lib/styles';
import { navigate, page } from '../../src/router/location';
import { CRASH_TEXT, ErrorBoundary } from '../../src/ui/error-boundary';

const CHUNK = `${window.location.origin}/assets/chunks/CustomersPage-OLD123.js`;
const chunkError = () => new TypeError(`Failed to fetch dynamically imported module: ${CHUNK}`);
const Customers = () => <h1>Customers</h1>;

/** A shell with a page area whose loader is `load`, made anew on each attempt as the app does. */
function show(load: () => Promise<{ default: ComponentType }>) {
  let Page = lazy(load);
  const onRetry = vi.fn(() => (Page = lazy(load)));
  render(
    <ErrorBoundary>
      <nav aria-label="Main">sidebar</nav>
      <main>
        <PageLoadBoundary onRetry={onRetry}>
          {() => (
            <Suspense fallback={<p>loading</p>}>
              <Page />
            </Suspense>
          )}
        </PageLoadBoundary>
      </main>
    </ErrorBoundary>,
  );
  return { onRetry };
}

const setOnLine = (value: boolean) => Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => value });
let reload: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  navigate('/customers?q=ann', { replace: true });
  sessionStorage.clear();
  reload = vi.spyOn(page, 'reload').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined); // React reports the caught errors
});
afterEach(() => {
  setOnLine(true);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('D40 a page whose code cannot load', () => {
  it('D40 offline: the shell stays, the page area says so with Retry, and coming back online loads the page', async () => {
    setOnLine(false);
    let online = false;
    const head = vi.fn();
    vi.stubGlobal('fetch', head);
    show(() => (online ? Promise.resolve({ default: Customers }) : Promise.reject(chunkError())));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(PAGE_LOAD_FAILED);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(screen.queryByText(CRASH_TEXT)).toBeNull();
    expect(head).not.toHaveBeenCalled(); // offline: nothing to ask the server
    setOnLine(true);
    online = true;
    await act(async () => void window.dispatchEvent(new Event('online')));
    expect(await screen.findByRole('heading', { name: 'Customers' })).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
  });

  it('D40 Retry asks for the file again', async () => {
    let fail = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 200 })),
    );
    const { onRetry } = show(() => (fail ? Promise.reject(chunkError()) : Promise.resolve({ default: Customers })));
    await screen.findByRole('alert');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Customers' })).toBeTruthy();
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled(); // the file is there (200): no reload
  });

  it('D40 a file removed by a deployment (404) reloads the app once at the same address, never in a loop', async () => {
    const head = vi.fn(async () => new Response(null, { status: 404 }));
    vi.stubGlobal('fetch', head);
    show(() => Promise.reject(chunkError()));
    await screen.findByRole('alert');
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(head).toHaveBeenCalledWith(CHUNK, expect.objectContaining({ method: 'HEAD' }));
    expect(sessionStorage.getItem(RELOAD_MARK)).toBe('/customers?q=ann');
    // After the reload the file is still missing: the message stays, no second reload.
    document.body.innerHTML = '';
    show(() => Promise.reject(chunkError()));
    await screen.findByRole('alert');
    await vi.waitFor(() => expect(head).toHaveBeenCalledTimes(2));
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(reload).toHaveBeenCalledTimes(1);
    // A page that loads clears the mark: the next deployment may reload once again.
    pageLoaded();
    expect(sessionStorage.getItem(RELOAD_MARK)).toBeNull();
  });

  it('SPEC §2 a rendering crash inside the page still shows the full-screen error', async () => {
    const Broken = () => {
      throw new Error('boom');
    };
    show(() => Promise.resolve({ default: Broken }));
    expect(await screen.findByText(CRASH_TEXT)).toBeTruthy();
    expect(screen.queryByText(PAGE_LOAD_FAILED)).toBeNull();
  });

  it('tells a failed import (or the rest of the styles failing to load) from other errors, as each browser words it', () => {
    expect(isChunkError(chunkError())).toBe(true);
    expect(isChunkError(new TypeError('error loading dynamically imported module: x.js'))).toBe(true);
    expect(isChunkError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkError(stylesFailed('/assets/app-X.css'))).toBe(true);
    expect(isChunkError(new Error('boom'))).toBe(false);
    expect(isChunkError('Failed to fetch dynamically imported module')).toBe(false);
  });
});
