// A matched route as a screen: the shell around it, D9's permission check, the route's params
// (useParams), D41's draft hook (drafts/context.ts), the app's query cache and its lazily loaded page (D40: a page whose code
// cannot load leaves the shell standing). A chunk of its own, loaded with the page (app/App.tsx).
import { Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { DraftsContext } from '../drafts/context';
import { useDraft } from '../drafts/use-draft';
import { defaultCache, QueryProvider } from '../query/use-query';
import type { Params } from '../router/match';
import { ParamsContext } from '../router/params';
import { RequirePermission } from '../router/require-permission';
import type { Route } from '../shell/routes';
import Shell from '../shell/Shell';
import { lazyLoaded } from '../ui/preloaded';
import { Spinner } from '../ui/spinner';
import { PageLoadBoundary, pageLoaded } from './page-load';

/** One lazy component per route, made the first time the route is shown. */
const pages = new Map<Route, LazyExoticComponent<ComponentType>>();
function pageOf(route: Route): LazyExoticComponent<ComponentType> {
  let page = pages.get(route);
  if (!page) pages.set(route, (page = lazyLoaded(route.load, (m) => (pageLoaded(), m.default))));
  return page;
}

export function ShellScreen({ route, params }: { route: Route; params: Params }) {
  return (
    <Shell title={route.title}>
      <RequirePermission permission={route.permission}>
        <ParamsContext.Provider value={params}>
          <DraftsContext.Provider value={useDraft}>
            <QueryProvider cache={defaultCache()}>
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
            </QueryProvider>
          </DraftsContext.Provider>
        </ParamsContext.Provider>
      </RequirePermission>
    </Shell>
  );
}
