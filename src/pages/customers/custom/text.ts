// D56: a custom value in words, as the customer page, a location and the conflict panel show it.
import type { CustomField, CustomValue } from '../../../../contract/custom-fields';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar date as YYYY-MM-DD. */
export const isDate = (s: string) => DATE.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;

const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 20 });

/** D56: a value in words: a choice by its option's label, a date as the pages write dates, yes/no as Yes or No. */
export function customText(f: CustomField, v: CustomValue | null | undefined): string {
  if (v === null || v === undefined) return '';
  const option = (id: string) => f.options.find((o) => o.id === id)?.label ?? id;
  if (Array.isArray(v)) return v.map(option).join(', ');
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'number') return numberFormat.format(v);
  if (f.type === 'choice') return option(v);
  if (f.type === 'date' && isDate(v)) return dayFormat.format(new Date(`${v}T00:00:00Z`));
  return v;
}
