// D56 D26: the list's custom-field part of the URL: conditions as the API takes them (`cf.<key>`,
// `cf.<key>.contains`, `.from`, `.to`, `.empty`; contract/custom-list.ts), a sort by a field
// (`sort=cf.<key>`, `-cf.<key>`) and the custom columns shown (`columns=gate_code,units`).
// Anything malformed falls back to nothing; what names no active field is left out of the API call.
import { CUSTOM_KEY_SHAPE, type CustomField } from '../../../../contract/custom-fields';
import {
  CUSTOM_FILTER_OPS_BY_TYPE,
  CUSTOM_FILTER_VALUE_MAX,
  CUSTOM_FILTERS_MAX,
  CUSTOM_PARAM_PREFIX,
  CUSTOM_SORT_TYPES,
  customParam,
  customSortOf,
  readCustomParam,
  type CustomFilter,
  type CustomSort,
} from '../../../../contract/custom-list';

export const COLUMNS_PARAM = 'columns';
/** At most as many columns as an organization has fields. */
const COLUMNS_MAX = 50;

export interface CustomListState {
  custom: CustomFilter[];
  /** Keys of the custom fields shown as columns, in the order chosen. */
  columns: string[];
}

/** `sort=cf.<key>` or `-cf.<key>` as written, or undefined. */
export function readCustomSort(value: string | null): CustomSort | undefined {
  const s = value ? customSortOf(value) : null;
  return s && CUSTOM_KEY_SHAPE.test(s.key) ? (value as CustomSort) : undefined;
}

export function readCustomState(p: URLSearchParams): CustomListState {
  const custom: CustomFilter[] = [];
  for (const [name, raw] of p) {
    if (!name.startsWith(CUSTOM_PARAM_PREFIX) || custom.length >= CUSTOM_FILTERS_MAX) continue;
    const read = readCustomParam(name.slice(CUSTOM_PARAM_PREFIX.length));
    const value = raw.trim().slice(0, CUSTOM_FILTER_VALUE_MAX);
    if (!read || !CUSTOM_KEY_SHAPE.test(read.key) || !value || custom.some((c) => c.key === read.key && c.op === read.op)) continue;
    custom.push({ ...read, value });
  }
  const columns = [...new Set((p.get(COLUMNS_PARAM) ?? '').split(',').filter((k) => CUSTOM_KEY_SHAPE.test(k)))].slice(0, COLUMNS_MAX);
  return { custom, columns };
}

export function putCustomState(p: URLSearchParams, s: CustomListState): void {
  for (const c of s.custom) p.set(customParam(c.key, c.op), c.value);
  if (s.columns.length) p.set(COLUMNS_PARAM, s.columns.join(','));
}

/** The conditions as query parameters of GET /v1/customers/ (and the export). */
export const customApiParams = (custom: readonly CustomFilter[]): Record<`cf.${string}`, string> =>
  Object.fromEntries(custom.map((c) => [customParam(c.key, c.op), c.value])) as Record<`cf.${string}`, string>;

/** The conditions a field of this organization takes (an archived or deleted field's are dropped). */
export const liveConditions = (custom: readonly CustomFilter[], fields: readonly CustomField[]) =>
  custom.filter((c) => fields.some((f) => f.key === c.key && CUSTOM_FILTER_OPS_BY_TYPE[f.type].includes(c.op)));

/** A custom sort of a field that sorts, else null. */
export function liveSort(sort: string, fields: readonly CustomField[]): CustomField | null {
  const s = customSortOf(sort);
  return (s && fields.find((f) => f.key === s.key && CUSTOM_SORT_TYPES.includes(f.type))) || null;
}
