// D27: RFC 4180 CSV, written. Cells that a spreadsheet would run as a formula are prefixed with '
// (OWASP "CSV injection"); reading files back is csv-read.ts, which takes that prefix off again (D43).

/** Characters that make a spreadsheet treat a cell as a formula (D27). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: spreadsheet-safe, then quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | null | undefined): string {
  let s = value ?? '';
  if (FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (cells: readonly (string | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;
