// Pure path matching for the route table. Patterns are '/a/:param/b'; the first match wins,
// so the table lists 'customers/new' before 'customers/:id' (D12).

export type Params = Record<string, string>;

/** Matches `pathname` against `pattern`; returns the decoded params or null. */
export function matchPath(pattern: string, pathname: string): Params | null {
  const want = split(pattern);
  const have = split(pathname);
  if (want.length !== have.length) return null;
  const params: Params = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? '';
    const h = have[i] ?? '';
    if (w.startsWith(':')) {
      try {
        params[w.slice(1)] = decodeURIComponent(h);
      } catch {
        return null; // malformed %-escape: not this route
      }
    } else if (w !== h) return null;
  }
  return params;
}

function split(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/** The first route whose path matches, with its params. */
export function findRoute<R extends { path: string }>(routes: readonly R[], pathname: string): { route: R; params: Params } | null {
  for (const route of routes) {
    const params = matchPath(route.path, pathname);
    if (params) return { route, params };
  }
  return null;
}
