// D56 D26: the customers list by custom field, as its query string carries it (the app's URL too):
//   cf.<key>=<value>            equals (text folded as names are, a number, a date, true/false, an option id)
//   cf.<key>.contains=<text>    text and long text, at least CUSTOM_CONTAINS_MIN characters (folded)
//   cf.<key>.from=<v>, .to=<v>  number and date ranges, both ends included; either end alone
//   cf.<key>.empty=true|false   no value / has a value
//   sort=cf.<key> | sort=-cf.<key>  by the field's value (ties by id); customers without one come last
import type { CustomFieldType } from './custom-fields';

export const CUSTOM_PARAM_PREFIX = 'cf.';
export const CUSTOM_FILTER_OPS = ['equals', 'contains', 'from', 'to', 'empty'] as const;
export type CustomFilterOp = (typeof CUSTOM_FILTER_OPS)[number];
/** D34: at most this many custom conditions on one list (each is a join). */
export const CUSTOM_FILTERS_MAX = 10;
/** A contains shorter than this would read every record (a trigram index needs three characters). */
export const CUSTOM_CONTAINS_MIN = 3;
export const CUSTOM_FILTER_VALUE_MAX = 500;

export interface CustomFilter {
  key: string;
  op: CustomFilterOp;
  value: string;
}

/** D56: which conditions each type takes; a type absent from a list refuses it (400 naming the parameter). */
export const CUSTOM_FILTER_OPS_BY_TYPE: Readonly<Record<CustomFieldType, readonly CustomFilterOp[]>> = {
  text: ['equals', 'contains', 'empty'],
  long_text: ['contains', 'empty'],
  number: ['equals', 'from', 'to', 'empty'],
  date: ['equals', 'from', 'to', 'empty'],
  yes_no: ['equals', 'empty'],
  choice: ['equals', 'empty'],
  choices: ['equals', 'empty'],
};
/** D56: the types a list sorts by (several choices has no one value to sort by). */
export const CUSTOM_SORT_TYPES: readonly CustomFieldType[] = ['text', 'long_text', 'number', 'date', 'yes_no', 'choice'];

/** The query parameter of a condition: `cf.gate`, `cf.gate.contains`. */
export const customParam = (key: string, op: CustomFilterOp) => `${CUSTOM_PARAM_PREFIX}${key}${op === 'equals' ? '' : `.${op}`}`;

/** A parameter's name after `cf.` read as key and condition, or null when it is neither. */
export function readCustomParam(rest: string): { key: string; op: CustomFilterOp } | null {
  const [key = '', op = 'equals', ...more] = rest.split('.');
  if (more.length || !(CUSTOM_FILTER_OPS as readonly string[]).includes(op) || (rest.includes('.') && op === 'equals')) return null;
  return { key, op: op as CustomFilterOp };
}

export type CustomSort = `cf.${string}` | `-cf.${string}`;
/** `sort=cf.<key>` or `-cf.<key>` as its key and direction, or null for the list's own sorts. */
export function customSortOf(sort: string): { key: string; dir: 'asc' | 'desc' } | null {
  const m = /^(-?)cf\.(.+)$/.exec(sort);
  return m ? { key: m[2]!, dir: m[1] ? 'desc' : 'asc' } : null;
}
