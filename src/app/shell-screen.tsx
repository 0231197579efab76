// A matched shell route as a screen: the shell around it, D9's permission check, the route's params
// (useParams), D41's draft hook (drafts/context.ts) and its lazily loaded page (D40: a page whose code
// cannot load leaves the shell standing). It is in the lazy group (lazy.ts), so none of it loads before
// the login form.
import { Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { DraftsContext } from '../drafts/context';
import { useDraft } from '../drafts/use-draft';
import type { Params } from '../router/match';
import { ParamsContext } from '../router/params';
import { ROUTES, type RouteData } from '../router/route-table';
import { RequirePermission } from '../router/require-permission';
import Shell from '../shell/Shell';
import { Spinner } from '../ui/spinner';
import { PageLoadBoundary, pageLoaded } from './page-load';
import { lazyLoaded } from '../ui/preloaded';
import type { ShellRoute } from './routes';

/** One lazy component per route, made the first time the route is shown. */
const pages = new Map<ShellRoute, LazyExoticComponent<ComponentType>>();
function pageOf(route: ShellRoute): LazyExoticComponent<ComponentType> {
  let page = pages.get(route);
  if (!page) pages.set(route, (page = lazyLoaded(route.load, (m) => (pageLoaded(), m.default))));
  return page;
}

/** The route comes from App's match (routes.ts stays in the first bundle, not in this group). */
export function ShellScreen({ route, params }: { route: ShellRoute; params: Params }) {
  const data: RouteData | undefined = ROUTES.find((r) => r.path === route.path); // its title and permission
  return (
    <Shell title={data?.title ?? ''}>
      <RequirePermission permission={data?.permission}>
        <ParamsContext.Provider value={params}>
          <DraftsContext.Provider value={useDraft}>
            <PageLoadBoundary key={route.path} onRetry={() => pages.delete(route)}>
              {() => {
                const Page = pageOf(route);
                return (
                  <Suspense fallback={<Spinner />}>
                    <Page />
                  </Suspense>
                );
              }}
            </PageLoadBoundary>
          </DraftsContext.Provider>
        </ParamsContext.Provider>
      </RequirePermission>
    </Shell>
  );
}
