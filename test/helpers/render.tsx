// Renders UI inside a test session's provider, for page and shell tests; with D41's draft hook, which
// the shell gives its pages.
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { DraftsContext } from '../../src/drafts/context';
import { useDraft } from '../../src/drafts/use-draft';
import { createQueryCache, type QueryCache } from '../../src/query/cache';
import { QueryProvider } from '../../src/query/use-query';
import { navigate } from '../../src/router/location';
import { ParamsContext } from '../../src/router/params';
import { SessionProvider } from '../../src/session/use-session';
import type { SessionState } from '../../src/session/types';
import { Toaster } from '../../src/ui/toast';
import { FakeApi, MemoryStorage } from './fake-api';
import { pageSession, WITH_ORG, type SessionOptions, type TestSession } from './session';

export function renderWithSession(t: Pick<TestSession, 'session'>, ui: ReactNode) {
  return render(
    <SessionProvider session={t.session}>
      <DraftsContext.Provider value={useDraft}>{ui}</DraftsContext.Provider>
    </SessionProvider>,
  );
}

export interface PageOptions extends Omit<SessionOptions, 'api' | 'state'> {
  /** Who is signed in: a session state (WITH_ORG, Acme's owner, by default), or Acme's owner with just these permissions. */
  as?: Partial<SessionState> | readonly string[];
  /** The API the page talks to; a fresh one by default. */
  fake?: FakeApi;
  /** The route's parameters, as the router would give them. */
  params?: Record<string, string>;
  /** The organization storage remembers ('1', Acme, by default). */
  org?: string;
  /** The query cache; a fresh one without retries by default. */
  cache?: QueryCache;
}

/**
 * A page at `path` as the app shows it: signed in (valid tokens and the organization stored) unless `as`
 * says signed out, with the toaster; returns the test session.
 */
export function renderPage(
  path: string,
  page: ReactNode,
  { as = WITH_ORG, fake = new FakeApi(), params = {}, org = '1', cache = createQueryCache({ retries: 0 }), ...options }: PageOptions = {},
) {
  navigate(path, { replace: true });
  const state: Partial<SessionState> = isPermissions(as) ? { ...WITH_ORG, permissions: [...as] } : as;
  const signedIn = state.isAuthenticated !== false;
  const t = pageSession({ api: fake, state, kv: new MemoryStorage(signedIn ? { current_org_id: org } : {}), ...options });
  if (signedIn) t.seed();
  const view = renderWithSession(
    t,
    <QueryProvider cache={cache}>
      <ParamsContext.Provider value={params}>{page}</ParamsContext.Provider>
      <Toaster />
    </QueryProvider>,
  );
  return { ...t, view };
}

const isPermissions = (as: PageOptions['as']): as is readonly string[] => Array.isArray(as);
