// A reload's page data, asked for as soon as the session's load has answered (SPEC §4: the current-user
// call first, then the page's), instead of once the page's code has arrived, run and rendered: on a slow
// phone that code is still on the wire when `me` answers (docs/performance.md). The query cache then
// holds the call in flight, and the page's own useQuery finds it (one call, not two: D14's deduplication).
// Loaded beside the page's code by preload.ts, only with a stored session.
import { customersApi, type ApiContext } from '../api/customers';
import type { QueryDef } from '../query/cache';
import { defaultCache } from '../query/use-query';
import type { Session } from '../session/controller';
import { mustEnrolMfa } from '../session/mfa';

/** Pages whose data does not depend on their address beyond the path, by route path. */
const PAGE_DATA: Partial<Record<string, (api: ApiContext) => QueryDef<unknown>>> = {
  '/dashboard': (api) => customersApi(api).dashboard(), // D32: one call
};

/**
 * Once the session has loaded, fetches the data of the page at route `path` into the app's query
 * cache, when that page is what the person will see: signed in, in an organization, not sent to enrol
 * in two-step sign-in first (D54). Anything else (signed out, another organization to choose) asks nothing.
 */
export function prefetchPageData(session: Session, path: string): void {
  const data = PAGE_DATA[path];
  if (!data) return;
  const settled = (): boolean => {
    const s = session.store.getState();
    if (s.loading) return false;
    if (s.isAuthenticated && s.currentOrg && !mustEnrolMfa(s)) {
      const { key, fetch } = data({ client: session.client, orgId: s.currentOrg.id });
      defaultCache()
        .fetchQuery(key, fetch)
        .catch(() => undefined); // the page shows a failure itself
    }
    return true;
  };
  if (settled()) return;
  const stop = session.store.subscribe(() => {
    if (settled()) stop();
  });
}
