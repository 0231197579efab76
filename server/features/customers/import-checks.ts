// D27 D48: how an import checks each cell: as the form's fields are checked (schema.ts), with the cells
// that are not text in a spreadsheet read from their text (a flag as true/false or yes/no, a type in any case).
import { CUSTOMER_INPUT_FIELDS, CUSTOMER_SERVICE_FIELDS, type ImportField } from '../../../contract/customers';
import type { Check } from '../../schema';
import { customerFields, serviceFields } from './schema';

/** D27 D48: the fields an import reads, in the export's order. */
export const IMPORT_FIELDS: readonly ImportField[] = [...CUSTOMER_INPUT_FIELDS, ...CUSTOMER_SERVICE_FIELDS];

export const FLAG_WORDS: Readonly<Record<string, boolean>> = { true: true, yes: true, y: true, '1': true, false: false, no: false, n: false, '0': false };

const cell = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

export const importChecks: Record<ImportField, Check<unknown>> = {
  ...customerFields,
  ...serviceFields,
  type: (value, field) => serviceFields.type(cell(value), field),
  do_not_service: (value, field) => serviceFields.do_not_service(typeof value === 'string' ? (FLAG_WORDS[cell(value) as string] ?? value) : value, field),
};
