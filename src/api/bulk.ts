// D58: the bulk actions on customers and their one undo. An action or an undo changes many customers: the
// lists, the records, the dashboard's figures and the activity log all go stale.
import { useMemo } from 'react';
import type { BulkAction, BulkResult, BulkSelection, BulkUndoResult } from '../../contract/bulk';
import type { CustomValue } from '../../contract/custom-fields';
import type { CustomerStatus, CustomerType } from '../../contract/customers';
import type { MutationDef } from '../query/cache';
import { useSession, useSessionActions } from '../session/use-session';
import type { ApiContext } from './customers';

export const BULK_PATH = '/v1/customers/bulk/';
export const BULK_DELETE_PATH = `${BULK_PATH}delete/`;
export const bulkUndoPath = (bulkId: number) => `${BULK_PATH}${bulkId}/undo/`;

/** What an action needs beside the selection (POST /v1/customers/bulk/). */
export interface BulkChange {
  action: Exclude<BulkAction, 'delete'>;
  tag?: string;
  status?: CustomerStatus;
  type?: CustomerType;
  reason?: string | null;
  /** set_custom: `{key: value}`; clear_custom: `{key: null}`. */
  custom?: Record<string, CustomValue | null>;
  /** D59 assign: a member's user id, or null to unassign. */
  assigned_to?: number | null;
}

export type BulkRequest = { selection: BulkSelection } & ({ change: BulkChange } | { delete: true });

export function bulkApi({ client, orgId }: ApiContext) {
  // customerKeys.all and .dashboard, and the activity log's key, written out: the activity log loads this
  // without the customers calls (test/app/chunks.test.ts).
  const written = [
    ['customers', orgId],
    ['dashboard', orgId],
    ['audit', orgId],
  ];
  return {
    run: {
      run: (r: BulkRequest) =>
        'delete' in r ? client.post<BulkResult>(BULK_DELETE_PATH, r.selection) : client.post<BulkResult>(BULK_PATH, { ...r.selection, ...r.change }),
      invalidates: written,
    } satisfies MutationDef<BulkRequest, BulkResult>,
    undo: { run: (bulkId: number) => client.post<BulkUndoResult>(bulkUndoPath(bulkId)), invalidates: written } satisfies MutationDef<number, BulkUndoResult>,
  };
}

export type BulkApi = ReturnType<typeof bulkApi>;

/** The bulk calls of the organization this tab shows. */
export function useBulkApi(): BulkApi {
  const { client } = useSessionActions();
  const orgId = useSession().currentOrg?.id ?? null;
  return useMemo(() => bulkApi({ client, orgId }), [client, orgId]);
}
