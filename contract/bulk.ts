// D58: bulk actions on the customers list and their one undo, shared by the app and the server.
import type { PersonRef } from './customers';

/** D58: at most this many customers in one action. */
export const BULK_MAX = 10_000;
/** D58: an action can be undone for this many days (from the toast, and from its entry in the activity log). */
export const BULK_UNDO_DAYS = 30;
/** D58: an export of customers picked one by one names at most this many ids (they travel in the export's URL). */
export const EXPORT_IDS_MAX = 1_000;
/** The names of the customers changed since that an undo's answer lists (it counts them all). */
export const BULK_NAMES_SHOWN = 20;

/** D58: what POST /v1/customers/bulk/ does to each selected customer (delete has its own call). */
export const BULK_ACTIONS = [
  'add_tag',
  'remove_tag',
  'set_status',
  'set_type',
  'set_do_not_service',
  'clear_do_not_service',
  'set_custom',
  'clear_custom',
  'assign',
] as const;
// D59: `assign` takes `assigned_to` (a member's user id, or null to unassign).
export type BulkAction = (typeof BULK_ACTIONS)[number] | 'delete';

/** D58: the customers an action is for: ids picked, or every customer the list's filter matches (with the count the person saw). */
export type BulkSelection = { ids: number[] } | { filter: string; count: number };

/** The answer of an action: `changed` customers were written; `unchanged` already were as asked. */
export interface BulkResult {
  bulk_id: number | null;
  action: BulkAction;
  changed: number;
  unchanged: number;
}

/** The answer of an undo: `restored` went back; the rest were changed since and kept the later change. */
export interface BulkUndoResult {
  restored: number;
  changed_since_count: number;
  /** The first BULK_NAMES_SHOWN of them, by name. */
  changed_since: PersonRef[];
}
