// D27 D67: RFC 4180 CSV, written (the customers export, everything's export). Cells that a spreadsheet would run as a formula are prefixed with '
// (OWASP "CSV injection"); reading files back is csv-read.ts, which takes that prefix off again (D43).

import { CUSTOMER_INPUT_FIELDS, CUSTOMER_SERVICE_FIELDS } from '../contract/customers';

/** Characters that make a spreadsheet treat a cell as a formula (D27). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: spreadsheet-safe, then quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | null | undefined): string {
  let s = value ?? '';
  if (FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (cells: readonly (string | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** D27: the customers CSV's columns: D22's fields (the header an import reads back), then when it was made and changed. */
export const CUSTOMER_CSV_COLUMNS = [...CUSTOMER_INPUT_FIELDS, ...CUSTOMER_SERVICE_FIELDS, 'created_at', 'updated_at'] as const;
