// A reload's page data (app/prefetch.ts): asked for once the session's load has answered, in the
// organization the tab shows, and found in flight by the page's own query (one call, SPEC §4's order:
// the current-user call first, then the page's). Nothing is asked when the page will not be shown.
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { customersApi, DASHBOARD_PATH } from '../../src/api/customers';
import { prefetchPageData } from '../../src/app/prefetch';
import { createStore, patch } from '../../src/lib/store';
import { defaultCache, useQuery } from '../../src/query/use-query';
import type { Session } from '../../src/session/controller';
import { LOGGED_OUT, type Organization, type SessionState } from '../../src/session/types';

const org = (id: number, extra: Partial<Organization> = {}): Organization => ({ id, name: `Org ${id}`, logo_url: null, ...extra });
const loading: SessionState = { ...LOGGED_OUT, loading: true, hydrationComplete: false, hydrationError: null };
const loaded = (o: Organization | null, mfaOn = false): Partial<SessionState> => ({
  loading: false,
  hydrationComplete: true,
  isAuthenticated: true,
  currentOrg: o,
  organizations: o ? [o] : [],
  user: { email: 'owner@demo.test', first_name: 'Olivia', avatar_url: null, mfa_enabled: mfaOn },
});

let get: ReturnType<typeof vi.fn>;
function fakeSession() {
  const store = createStore<SessionState>(loading);
  get = vi.fn(() => new Promise(() => undefined)); // in flight for the whole test
  return { store, client: { get, post: vi.fn(), patch: vi.fn(), delete: vi.fn() } } as unknown as Session & { store: typeof store };
}

beforeEach(() => defaultCache().clear());

describe('SPEC §4 D32 a reload of the dashboard asks for its data as soon as the session has loaded', () => {
  it('nothing while the current-user call is unanswered; then the dashboard, once, in the tab’s organization', () => {
    const session = fakeSession();
    prefetchPageData(session, '/dashboard');
    expect(get).not.toHaveBeenCalled();
    patch(session.store, loaded(org(7)));
    expect(get).toHaveBeenCalledTimes(1);
    expect(get.mock.calls[0]![0]).toBe(DASHBOARD_PATH);
    expect(defaultCache().snapshot(['dashboard', 7]).fetching).toBe(true);
    patch(session.store, { prefs: { later: true } }); // later changes of the session ask nothing more
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('D14 the page’s own query finds that call in flight: one call, not two', () => {
    const session = fakeSession();
    patch(session.store, loaded(org(8)));
    prefetchPageData(session, '/dashboard'); // already loaded: asked at once
    function Figures() {
      const q = useQuery(customersApi({ client: session.client, orgId: 8 }).dashboard());
      return <p>{q.fetching ? 'loading' : 'idle'}</p>;
    }
    render(<Figures />);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('nothing when the page will not be shown: signed out, no organization yet, or sent to enrol in two-step sign-in (D54)', () => {
    for (const state of [{ ...loaded(null), isAuthenticated: false }, loaded(null), loaded(org(9, { require_mfa: true }))]) {
      const session = fakeSession();
      prefetchPageData(session, '/dashboard');
      patch(session.store, state);
      expect(get).not.toHaveBeenCalled();
    }
    const enrolled = fakeSession();
    prefetchPageData(enrolled, '/dashboard');
    patch(enrolled.store, loaded(org(9, { require_mfa: true }), true));
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('a page whose data depends on more than its path (the customers list and its filters) is left to the page', () => {
    const session = fakeSession();
    patch(session.store, loaded(org(10)));
    prefetchPageData(session, '/customers');
    expect(get).not.toHaveBeenCalled();
  });
});
