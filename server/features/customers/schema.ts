// D22 D24 D26 D27: what the customers routes accept. Limits come from the contract the app's form uses.
import {
  CUSTOMER_SORTS,
  CUSTOMER_STATUSES,
  CUSTOMER_TEXT_LIMITS,
  CUSTOMER_TYPES,
  type CustomerSort,
  DEFAULT_CUSTOMER_SORT,
  DO_NOT_SERVICE_REASON_MAX_LENGTH,
  LEAD_SOURCE_MAX_LENGTH,
  DEFAULT_CUSTOMER_STATUS,
  MAX_TAGS,
  NOTE_MAX_LENGTH,
  PHONE_MIN_DIGITS,
  SEARCH_MAX_LENGTH,
  SERVICE_SORTS,
  TAG_MAX_LENGTH,
} from '../../../contract/customers';
import { ASSIGNED_FILTER } from '../../../contract/assignment';
import { EXPORT_IDS_MAX } from '../../../contract/bulk';
import { EMAIL_SHAPE, phoneDigits } from '../../../contract/matching';
import { CUSTOM_KEY_SHAPE } from '../../../contract/custom-fields';
import {
  CUSTOM_FILTER_VALUE_MAX,
  CUSTOM_FILTERS_MAX,
  CUSTOM_PARAM_PREFIX,
  customSortOf,
  readCustomParam,
  type CustomFilter,
  type CustomSort,
} from '../../../contract/custom-list';
import { fieldError } from '../../http';
import { customObject } from '../../custom-values';
import { bool, describeCheck, int, intText, list, MAX_INT4, oneOf, optional, pageQuery, specOf, text, withDefault, type Check } from '../../schema';

/** D32 `created_since`: a day (its start, UTC) or an instant as toISOString() writes it. */
export function isInstant(s: string): boolean {
  const t = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z)?$/.test(s) ? Date.parse(s) : Number.NaN;
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(s.slice(0, 10));
}

/** D58: the customers picked one by one, as ids separated by commas (`ids=12,40`), at most EXPORT_IDS_MAX. */
const idsText = describeCheck(
  (value, field) => {
    const ids = text({ max: EXPORT_IDS_MAX * 11, pattern: /^\d{1,10}(,\d{1,10})*$/, patternMessage: 'must be customer ids separated by commas' })(value, field)
      .split(',')
      .map(Number);
    if (ids.length > EXPORT_IDS_MAX) throw fieldError(field, `must name at most ${EXPORT_IDS_MAX} customers`);
    if (ids.some((id) => id < 1 || id > MAX_INT4)) throw fieldError(field, 'must be customer ids');
    return ids;
  },
  { kind: 'text', min: 1, max: EXPORT_IDS_MAX * 11, multiline: false, pattern: null },
);

const listSorts = oneOf([...CUSTOMER_SORTS, ...SERVICE_SORTS]);
/** D26 the list's sorts; D56 `cf.<key>` and `-cf.<key>` too (the field is checked by the handler). */
const sort: Check<CustomerSort | CustomSort> = describeCheck(
  (value, field) => {
    const custom = typeof value === 'string' ? customSortOf(value) : null;
    if (!custom) return listSorts(value, field);
    if (!CUSTOM_KEY_SHAPE.test(custom.key)) throw fieldError(field, 'names no custom field (cf.<key>)');
    return value as CustomSort;
  },
  specOf(listSorts) as Parameters<typeof describeCheck>[1],
);

/** D56: the list's conditions on custom fields (contract/custom-list.ts), their form; their types the handler checks. */
const customFilters: Check<CustomFilter[]> = describeCheck(
  (value, field) => {
    if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value))) throw fieldError(field, 'must be cf.<key>=… parameters');
    const entries = Object.entries((value ?? {}) as Record<string, unknown>);
    if (entries.length > CUSTOM_FILTERS_MAX)
      throw fieldError(CUSTOM_PARAM_PREFIX + entries[CUSTOM_FILTERS_MAX]![0], `is one more than the ${CUSTOM_FILTERS_MAX} custom field conditions a list takes`);
    return entries.map(([rest, raw]) => {
      const name = CUSTOM_PARAM_PREFIX + rest;
      const read = readCustomParam(rest);
      if (!read || !CUSTOM_KEY_SHAPE.test(read.key))
        throw fieldError(name.slice(0, 60), 'is not a custom field condition (cf.<key>, or with .contains, .from, .to or .empty)', 'unknown_field');
      const v = text({ max: CUSTOM_FILTER_VALUE_MAX })(raw, name);
      if (read.op === 'empty' && v !== 'true' && v !== 'false') throw fieldError(name, 'must be true or false');
      return { ...read, value: v };
    });
  },
  { kind: 'object', keys: [], values: 'text', required: false },
);

/** D26: the list's search, filters, sort and paging; also the export's filters (D27). */
export const listFilters = {
  q: optional(text({ max: SEARCH_MAX_LENGTH })),
  status: optional(oneOf(CUSTOMER_STATUSES)),
  tag: optional(text({ max: TAG_MAX_LENGTH })),
  sort: withDefault(sort, DEFAULT_CUSTOMER_SORT as CustomerSort | CustomSort),
  // D56: `cf.<key>=…`, `cf.<key>.contains=…` and so on.
  'cf.*': customFilters,
  // D59: 'me', 'none' or a member's user id.
  assigned: optional(text({ max: 10, pattern: ASSIGNED_FILTER, patternMessage: "must be 'me', 'none' or a member's id" })),
  // D48: by type, and only the customers flagged do-not-service.
  type: optional(oneOf(CUSTOMER_TYPES)),
  do_not_service: optional(oneOf(['true', 'false'] as const)),
  // D32: the dashboard's 'View newest customers' (those added this week).
  created_since: optional(
    describeCheck(
      (value, field) => {
        const s = text({ max: 30 })(value, field);
        if (!isInstant(s)) throw fieldError(field, 'must be a date (2024-06-01) or a time (2024-06-01T12:00:00.000Z)');
        return new Date(s).toISOString();
      },
      { kind: 'text', min: 1, max: 30, multiline: false, pattern: null },
    ),
  ),
};

/** GET /v1/customers/: D26, plus `deleted=true` for the 'Deleted' view (D25). */
/** D27 D58: the export's query: the list's filters, and optionally only the customers picked. */
export const exportQuery = { ...listFilters, ids: optional(idsText) };

export const listQuery = { ...listFilters, ...pageQuery, deleted: withDefault(oneOf(['true', 'false'] as const), 'false') };

/** D22: stored lower-cased; the shape check is deliberately plain. */
const emailText = text({ max: CUSTOMER_TEXT_LIMITS.email, pattern: EMAIL_SHAPE, patternMessage: 'must be an email address' });
export const email: Check<string> = describeCheck((value, field) => emailText(value, field).toLowerCase(), {
  kind: 'text',
  min: 1,
  max: CUSTOMER_TEXT_LIMITS.email,
  multiline: false,
  pattern: EMAIL_SHAPE,
});

/** D22: at most 40 characters with at least 7 digits, written however the person likes. */
const phoneText = text({ max: CUSTOMER_TEXT_LIMITS.phone });
export const phone: Check<string> = describeCheck(
  (value, field) => {
    const s = phoneText(value, field);
    if (phoneDigits(s).length < PHONE_MIN_DIGITS) throw fieldError(field, `must have at least ${PHONE_MIN_DIGITS} digits`);
    return s;
  },
  { kind: 'text', min: 1, max: CUSTOMER_TEXT_LIMITS.phone, multiline: false, pattern: null },
);

/** D22: up to 20 tags of 1–30 characters, unique regardless of case. */
const tagList = list(text({ max: TAG_MAX_LENGTH }), { max: MAX_TAGS });
const tags: Check<string[]> = describeCheck(
  (value, field) => {
    const all = tagList(value, field);
    const seen = new Set<string>();
    for (const tag of all) {
      const key = tag.toLowerCase();
      if (seen.has(key)) throw fieldError(field, `has "${tag}" twice`);
      seen.add(key);
    }
    return all;
  },
  specOf(tagList) as Parameters<typeof describeCheck>[1],
);

export const optionalText = (max: number) => optional(text({ max }));

/** D48: type, lead source and the do-not-service flag with its reason. */
export const serviceFields = {
  type: withDefault(oneOf(CUSTOMER_TYPES), CUSTOMER_TYPES[0]),
  lead_source: optionalText(LEAD_SOURCE_MAX_LENGTH),
  do_not_service: withDefault(bool(), false),
  do_not_service_reason: optionalText(DO_NOT_SERVICE_REASON_MAX_LENGTH),
};

/** D22: the writable fields. Empty optional fields are stored as null. */
export const customerFields = {
  name: text({ max: CUSTOMER_TEXT_LIMITS.name }),
  company: optionalText(CUSTOMER_TEXT_LIMITS.company),
  email: optional(email),
  phone: optional(phone),
  address_line: optionalText(CUSTOMER_TEXT_LIMITS.address_line),
  city: optionalText(CUSTOMER_TEXT_LIMITS.city),
  region: optionalText(CUSTOMER_TEXT_LIMITS.region),
  postal_code: optionalText(CUSTOMER_TEXT_LIMITS.postal_code),
  country: optionalText(CUSTOMER_TEXT_LIMITS.country),
  status: withDefault(oneOf(CUSTOMER_STATUSES), DEFAULT_CUSTOMER_STATUS),
  tags: withDefault(tags, [] as string[]),
};

/** POST /v1/customers/; D56 `custom` is checked against the organization's fields by the handler. */
export const createBody = { ...customerFields, custom: customObject, ...serviceFields, assigned_to: optional(int()) }; // D59

/** PATCH /v1/customers/{id}/: any subset of the fields, and the version it was based on (D31). */
export const updateBody = {
  ...customerFields,
  custom: customObject,
  ...serviceFields,
  status: oneOf(CUSTOMER_STATUSES),
  tags,
  type: oneOf(CUSTOMER_TYPES),
  do_not_service: bool(),
  assigned_to: optional(int()), // D59
  version: int({ min: 1 }),
};

/** D24 note bodies: multi-line text, 1–5,000 characters after trimming. */
export const noteBody = { body: text({ max: NOTE_MAX_LENGTH, multiline: true }) };

/** D23: the look-up while a person types. */
export const duplicatesQuery = {
  email: optional(text({ max: CUSTOMER_TEXT_LIMITS.email })),
  name: optional(text({ max: CUSTOMER_TEXT_LIMITS.name })),
  phone: optional(text({ max: CUSTOMER_TEXT_LIMITS.phone })),
  exclude: optional(intText()),
};

/** D45: the tag filter's suggestions: tags containing this text. */
export const tagsQuery = { q: optional(text({ max: TAG_MAX_LENGTH })) };

/** D48: the lead source's suggestions: earlier sources containing this text. */
export const leadSourcesQuery = { q: optional(text({ max: LEAD_SOURCE_MAX_LENGTH })) };

/** D44: the preview's time, as the preview answered it (ISO 8601). */
const instant: Check<Date> = describeCheck(
  (value, field) => {
    const s = text({ max: 40 })(value, field);
    const at = new Date(s);
    if (!/^\d{4}-\d\d-\d\dT/.test(s) || Number.isNaN(at.getTime())) throw fieldError(field, 'must be a time as the preview gave it (ISO 8601)');
    return at;
  },
  { kind: 'text', min: 1, max: 40, multiline: false, pattern: null },
);

/** D60: 200 columns of the longest targets (`location.cf.` and a 40-character key). */
const IMPORT_COLUMNS_PARAM_MAX = 12_000;

/** D27: what to do with rows whose email already belongs to a customer. */
/** D60: the person's mapping: one target per column (`-` for none), and how rows group into customers. */
export const importMappingQuery = { columns: optional(text({ max: IMPORT_COLUMNS_PARAM_MAX })), group_by: optional(text({ max: 10 })) };
export const importQuery = { on_duplicate: withDefault(oneOf(['skip', 'update'] as const), 'skip'), previewed_at: optional(instant), ...importMappingQuery };
