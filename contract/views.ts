// D57: saved views of the customers list, shared by the app and the server. A view keeps the list's URL
// parameters as they are (filters, custom fields and assignment included, sort, page size) and its columns,
// so whatever the list learns to filter by, a view keeps without a change here.

export const VIEW_NAME_MAX = 60;
/** Personal views per person in one organization, and shared views per organization. */
export const PERSONAL_VIEWS_MAX = 50;
export const SHARED_VIEWS_MAX = 100;
export const VIEW_PARAMS_MAX = 40;
export const VIEW_VALUE_MAX = 500;
export const VIEW_COLUMNS_MAX = 60;

/** The list's own parameters a view may keep (D26, D48, D32, D59); `page` and `view` are never kept. */
export const VIEW_LIST_PARAMS = ['q', 'status', 'tag', 'type', 'do_not_service', 'created_since', 'sort', 'page_size', 'assigned'] as const;
/** A custom field's filter or column: `cf.<key>` with an optional operator part (`cf.size.from`). */
export const VIEW_CUSTOM_PARAM = /^cf\.([a-z][a-z0-9_]{0,39})(?:\.[a-z_]{1,20})?$/;
/** A built-in column's id or `cf.<key>`. */
export const VIEW_COLUMN_SHAPE = /^(?:[a-z_]{1,40}|cf\.[a-z][a-z0-9_]{0,39})$/;

/**
 * What a view names that is no longer there: a custom field archived or deleted (D57), a member no longer
 * of the organization (D59 `assigned`: the answer's params leave it out, so the view opens without it).
 */
export interface ViewLeftOut {
  param: string;
  /** The field's label while it is archived; null once deleted (and for a member). */
  label: string | null;
  reason: 'field_archived' | 'field_deleted' | 'member_removed';
}

/** D57: a view as GET /v1/views/ answers it. */
export interface SavedView {
  id: number;
  name: string;
  shared: boolean;
  /** The caller made it (a personal view is only ever its maker's). */
  mine: boolean;
  /** The caller's default view of the list. */
  is_default: boolean;
  params: Record<string, string>;
  columns: string[];
  created_by: { id: number | null; name: string } | null;
  created_at: string;
  updated_at: string;
  left_out: ViewLeftOut[];
}
