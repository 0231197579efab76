// blockNavigation: a form with unsaved changes is asked before navigate() changes the URL (and Links,
// which navigate); it may stop the change and carry it out later through `retry`.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { blockNavigation, location, navigate } from '../../src/router/location';

let stop: (() => void) | null = null;
beforeEach(() => navigate('/start', { replace: true }));
afterEach(() => stop?.());

describe('blockNavigation', () => {
  test('a blocker that answers true stops the navigation; retry carries it out with the same options', () => {
    let retry: (() => void) | null = null;
    let asking = true;
    stop = blockNavigation((r) => {
      retry = r;
      return asking;
    });
    const replace = vi.spyOn(window.history, 'replaceState');
    navigate('/customers', { replace: true });
    expect(window.location.pathname).toBe('/start');
    expect(location.getState().pathname).toBe('/start');
    expect(replace).not.toHaveBeenCalled();
    asking = false; // the person chose to leave
    retry!();
    expect(window.location.pathname).toBe('/customers');
    expect(replace).toHaveBeenCalledTimes(1);
    replace.mockRestore();
  });

  test('a blocker that answers false lets it through; navigating to where one already is asks nothing', () => {
    const ask = vi.fn(() => false);
    stop = blockNavigation(ask);
    navigate('/start');
    expect(ask).not.toHaveBeenCalled();
    navigate('/jobs');
    expect(ask).toHaveBeenCalledTimes(1);
    expect(window.location.pathname).toBe('/jobs');
  });

  test('the returned function ends the blocking, and only its own', () => {
    const first = blockNavigation(() => true);
    const second = blockNavigation(() => true);
    first(); // replaced already: leaves the second in place
    navigate('/jobs');
    expect(window.location.pathname).toBe('/start');
    second();
    navigate('/jobs');
    expect(window.location.pathname).toBe('/jobs');
  });

  test('D42 Back asks too: the address is put back until the person answers, and leaving goes back then', () => {
    navigate('/customers');
    navigate('/customers/new');
    const at = (window.history.state as { idx: number }).idx; // each entry the app makes knows its place
    let retry: (() => void) | null = null;
    let asking = true;
    stop = blockNavigation((r) => {
      retry = r;
      return asking;
    });
    const seen: string[] = [];
    const unsubscribe = location.subscribe(() => seen.push(location.getState().pathname));
    // The browser's Back, as the browser does it: the address changes, then popstate says to which entry.
    // (history.go is watched rather than run: the test window's history is shared by every file.)
    const go = vi.spyOn(window.history, 'go').mockImplementation(() => undefined);
    const pop = (idx: number, path: string) => {
      window.history.replaceState({ idx }, '', path);
      window.dispatchEvent(new PopStateEvent('popstate', { state: { idx } }));
    };
    pop(at - 1, '/customers');
    expect(retry).not.toBeNull();
    expect(go).toHaveBeenLastCalledWith(1); // the address goes back to the form
    pop(at, '/customers/new'); // …which the browser reports; the form never left the screen
    expect(seen).toEqual([]);
    expect(location.getState().pathname).toBe('/customers/new');
    asking = false; // the person chose to leave
    retry!();
    expect(go).toHaveBeenLastCalledWith(-1); // Back again, now let through
    pop(at - 1, '/customers');
    expect(location.getState().pathname).toBe('/customers');
    // Forward to the form's address, with nothing unsaved, asks nothing.
    stop();
    pop(at, '/customers/new');
    expect(location.getState().pathname).toBe('/customers/new');
    expect(go).toHaveBeenCalledTimes(2);
    unsubscribe();
    go.mockRestore();
  });
});
