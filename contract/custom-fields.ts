// D56: an organization's own fields for customers and service locations, shared by the app and the server.
// Definitions are rows of one table (no schema change per organization); values live with the record as
// `custom: { key: value }`.
import { fold } from './fold';

export const CUSTOM_FIELD_KINDS = ['customer', 'location'] as const;
export type CustomFieldKind = (typeof CUSTOM_FIELD_KINDS)[number];

/** D56: how many fields an organization may define per record kind (archived ones count until deleted). */
export const CUSTOM_FIELD_LIMITS: Readonly<Record<CustomFieldKind, number>> = { customer: 50, location: 20 };

export const CUSTOM_FIELD_TYPES = ['text', 'long_text', 'number', 'date', 'yes_no', 'choice', 'choices'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export const CUSTOM_FIELD_TYPE_LABELS: Readonly<Record<CustomFieldType, string>> = {
  text: 'Text',
  long_text: 'Long text',
  number: 'Number',
  date: 'Date',
  yes_no: 'Yes/no',
  choice: 'One choice',
  choices: 'Several choices',
};

export const CUSTOM_TEXT_MAX = 500; // D56
export const CUSTOM_LONG_TEXT_MAX = 5_000; // D56
export const CUSTOM_OPTIONS_MAX = 100; // D56
export const CUSTOM_LABEL_MAX = 60;
export const CUSTOM_HELP_MAX = 200;
export const CUSTOM_OPTION_LABEL_MAX = 100;
export const CUSTOM_KEY_MAX = 40;
/** A key as records and the API name it: lower-case ASCII letters, digits and `_`, starting with a letter. */
export const CUSTOM_KEY_SHAPE = /^[a-z][a-z0-9_]{0,39}$/;
export const CUSTOM_OPTION_ID_SHAPE = /^[a-z0-9_]{1,20}$/;

/** D56: the types whose values may be unique within the organization. */
export const UNIQUE_TYPES: readonly CustomFieldType[] = ['text', 'number'];
export const CHOICE_TYPES: readonly CustomFieldType[] = ['choice', 'choices'];

/** D56: the type changes that lose no value (long text → text only when every value fits; the server checks). */
export const TYPE_CHANGES: Readonly<Partial<Record<CustomFieldType, readonly CustomFieldType[]>>> = {
  text: ['long_text'],
  long_text: ['text'],
  choice: ['choices'],
};

export interface CustomFieldOption {
  id: string;
  label: string;
}

/** D56: a definition as GET /v1/custom-fields/ answers it. */
export interface CustomField {
  id: number;
  record_kind: CustomFieldKind;
  key: string;
  label: string;
  type: CustomFieldType;
  options: CustomFieldOption[];
  help: string | null;
  required: boolean;
  unique: boolean;
  position: number;
  archived: boolean;
  archived_at: string | null;
  created_at: string;
}

/** A value by type: text, long text and date (YYYY-MM-DD) are strings, choice an option id, choices a list of them. */
export type CustomValue = string | number | boolean | string[];
export type CustomValues = Record<string, CustomValue>;

/** D56: a key from a label ('Gate code #2' → 'gate_code_2'): accents folded, other characters as `_`. */
export function keyFromLabel(label: string): string {
  const base = fold(label)
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const key = /^[a-z]/.test(base) ? base : `f_${base}`.replace(/_+$/, '');
  return key.slice(0, CUSTOM_KEY_MAX).replace(/_+$/, '');
}
