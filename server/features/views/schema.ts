// D57: what the saved-view routes accept. A view keeps the list's URL parameters: the list's own ones
// (checked as the list checks them where they are a fixed set) and custom fields' `cf.<key>…`.
import { CUSTOMER_SORTS, CUSTOMER_STATUSES, CUSTOMER_TYPES, PAGE_SIZES, SERVICE_SORTS } from '../../../contract/customers';
import { VIEW_COLUMN_SHAPE, VIEW_COLUMNS_MAX, VIEW_CUSTOM_PARAM, VIEW_LIST_PARAMS, VIEW_NAME_MAX, VIEW_PARAMS_MAX, VIEW_VALUE_MAX } from '../../../contract/views';
import { ASSIGNED_FILTER } from '../../../contract/assignment';
import { fieldError } from '../../http';
import { bool, describeCheck, int, list, optional, text, withDefault, type Check } from '../../schema';

const value = text({ max: VIEW_VALUE_MAX });
/** Parameters whose values are a fixed set: a view cannot keep one the list would refuse. */
const FIXED: Record<string, readonly string[]> = {
  status: CUSTOMER_STATUSES,
  type: CUSTOMER_TYPES,
  page_size: PAGE_SIZES.map(String),
  do_not_service: ['true'],
};
const BUILT_IN_SORTS: readonly string[] = [...CUSTOMER_SORTS, ...SERVICE_SORTS];
const CUSTOM_SORT = /^-?cf\.[a-z][a-z0-9_]{0,39}$/;

const params: Check<Record<string, string>> = describeCheck(
  (input, field) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) throw fieldError(field, 'must be an object of the list’s parameters');
    const entries = Object.entries(input);
    if (entries.length > VIEW_PARAMS_MAX) throw fieldError(field, `must have at most ${VIEW_PARAMS_MAX} parameters`);
    const out: Record<string, string> = {};
    for (const [key, raw] of entries) {
      const at = `${field}.${key}`;
      if (!(VIEW_LIST_PARAMS as readonly string[]).includes(key) && !VIEW_CUSTOM_PARAM.test(key)) throw fieldError(at, 'is not a parameter of the list', 'unknown_field');
      const v = value(raw, at);
      if (FIXED[key] && !FIXED[key].includes(v)) throw fieldError(at, `must be one of ${FIXED[key].join(', ')}`);
      if (key === 'sort' && !BUILT_IN_SORTS.includes(v) && !CUSTOM_SORT.test(v)) throw fieldError(at, 'is not a sort of the list');
      if (key === 'assigned' && !ASSIGNED_FILTER.test(v)) throw fieldError(at, "must be 'me', 'none' or a member's id"); // D59
      out[key] = v;
    }
    return out;
  },
  { kind: 'object', keys: VIEW_LIST_PARAMS, values: 'text' },
);

const column = text({ max: 43, pattern: VIEW_COLUMN_SHAPE, patternMessage: 'must be a column of the list' });
const columns: Check<string[]> = describeCheck(
  (input, field) => {
    const all = list(column, { max: VIEW_COLUMNS_MAX })(input, field);
    return [...new Set(all)];
  },
  { kind: 'list', max: VIEW_COLUMNS_MAX, item: { kind: 'text', min: 1, max: 43, multiline: false, pattern: VIEW_COLUMN_SHAPE, required: true } },
);

/** POST /v1/views/: personal unless `shared` (views:manage). */
export const createViewBody = {
  name: text({ max: VIEW_NAME_MAX }),
  shared: withDefault(bool(), false),
  params: withDefault(params, {}),
  columns: withDefault(columns, [] as string[]),
};

/** PATCH /v1/views/{id}/: any of these. */
export const updateViewBody = { name: text({ max: VIEW_NAME_MAX }), shared: bool(), params, columns };

/** PUT /v1/views/default/: the caller's default view, or null for the list as it comes. */
export const defaultViewBody = { view_id: optional(int({ min: 1 })) };
