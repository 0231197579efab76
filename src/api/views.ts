// D57: the saved views of the customers list, kept by the server (they follow the person to another
// browser and survive logout). Keys under ['views', orgId]; the activity log and dashboard refetch after a
// change (each is audited).
import { useMemo } from 'react';
import type { SavedView } from '../../contract/views';
import type { Client } from '../http/client';
import type { MutationDef, QueryDef, QueryKey } from '../query/cache';
import { useSession, useSessionActions } from '../session/use-session';

export const VIEWS_PATH = '/v1/views/';

export const viewKeys = { all: (orgId: number | null): QueryKey => ['views', orgId] };

/** POST /v1/views/: a personal view unless `shared` (views:manage). */
export interface NewView {
  name: string;
  shared?: boolean;
  params: Record<string, string>;
  columns?: string[];
}

export type ViewChanges = Partial<Pick<SavedView, 'name' | 'shared' | 'params' | 'columns'>>;

function parseViews(data: unknown): SavedView[] {
  const results = (data as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) throw new TypeError('Unexpected answer from the server');
  return results as SavedView[];
}

export function viewsApi({ client, orgId }: { client: Pick<Client, 'get' | 'post' | 'put' | 'patch' | 'delete'>; orgId: number | null }) {
  const written = [viewKeys.all(orgId), ['audit', orgId], ['dashboard', orgId]];
  const path = (id: number) => `${VIEWS_PATH}${id}/`;
  return {
    list: (): QueryDef<SavedView[]> => ({ key: viewKeys.all(orgId), fetch: async (signal) => parseViews(await client.get(VIEWS_PATH, { signal })) }),
    create: { run: (v: NewView) => client.post<SavedView>(VIEWS_PATH, v), invalidates: written } satisfies MutationDef<NewView, SavedView>,
    update: { run: ({ id, changes }: { id: number; changes: ViewChanges }) => client.patch<SavedView>(path(id), changes), invalidates: written } satisfies MutationDef<
      { id: number; changes: ViewChanges },
      SavedView
    >,
    remove: { run: (id: number) => client.delete<null>(path(id)), invalidates: written } satisfies MutationDef<number, null>,
    /** The person's default view of the list (null: the list as it comes). */
    setDefault: {
      run: (viewId: number | null) => client.put<{ view_id: number | null }>(`${VIEWS_PATH}default/`, { view_id: viewId }),
      invalidates: written,
    } satisfies MutationDef<number | null, { view_id: number | null }>,
  };
}

export function useViewsApi() {
  const { client } = useSessionActions();
  const orgId = useSession().currentOrg?.id ?? null;
  return useMemo(() => viewsApi({ client, orgId }), [client, orgId]);
}
