// D49: the merge calls (preview, merge, undo) with their cache keys. A merge or its undo changes both
// customers, their timelines, the list, its counts and the dashboard: every key under the organization's
// customers prefix goes stale, as after any other write to a customer (customers.ts).
import { useMemo } from 'react';
import type { Customer } from '../../contract/customers';
import type { MergePreview, MergeRequest } from '../../contract/merge';
import type { MutationDef, QueryDef, QueryKey } from '../query/cache';
import { useSession, useSessionActions } from '../session/use-session';
import { type ApiContext, CUSTOMERS_PATH, customerKeys, queryString } from './customers';

export const MERGE_PATH = `${CUSTOMERS_PATH}merge/`;
export const MERGE_PREVIEW_PATH = `${MERGE_PATH}preview/`;
export const mergeUndoPath = (mergeId: number) => `${CUSTOMERS_PATH}merges/${mergeId}/undo/`;

/** POST /v1/customers/merge/: the survivor as GET answers it, with the merge's id for its undo. */
export type MergeResult = Customer & { merge_id: number };
/** POST /v1/customers/merges/{id}/undo/: both customers as they are again. */
export interface UndoResult {
  survivor: Customer;
  merged: Customer;
}

export const mergeKeys = {
  preview: (orgId: number | null, survivorId: number, mergedId: number, propose: boolean): QueryKey => [
    ...customerKeys.all(orgId),
    'merge',
    survivorId,
    mergedId,
    propose,
  ],
};

/** The merge calls of one organization. */
export function mergeApi({ client, orgId }: ApiContext) {
  const written = [customerKeys.all(orgId), customerKeys.dashboard(orgId)];
  return {
    /** D66: with `propose`, the server answers the customer with more history as the survivor, whichever came first. */
    preview: (survivorId: number, mergedId: number, propose = false): QueryDef<MergePreview> => ({
      key: mergeKeys.preview(orgId, survivorId, mergedId, propose),
      fetch: (signal) => client.get<MergePreview>(MERGE_PREVIEW_PATH + queryString({ survivor_id: survivorId, merged_id: mergedId, propose }), { signal }),
    }),
    merge: { run: (body: MergeRequest) => client.post<MergeResult>(MERGE_PATH, body), invalidates: written } satisfies MutationDef<MergeRequest, MergeResult>,
    undo: { run: (mergeId: number) => client.post<UndoResult>(mergeUndoPath(mergeId)), invalidates: written } satisfies MutationDef<number, UndoResult>,
  };
}

export type MergeApi = ReturnType<typeof mergeApi>;

/** The merge calls of the organization this tab shows, for a screen. */
export function useMergeApi(): MergeApi {
  const { client } = useSessionActions();
  const orgId = useSession().currentOrg?.id ?? null;
  return useMemo(() => mergeApi({ client, orgId }), [client, orgId]);
}
