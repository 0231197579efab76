// D27: RFC 4180 CSV, written and read. Written cells that a spreadsheet would run as a formula are
// prefixed with ' (OWASP "CSV injection"); read files may use CRLF or LF and quoted fields.

/** Characters that make a spreadsheet treat a cell as a formula (D27). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: spreadsheet-safe, then quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | null | undefined): string {
  let s = value ?? '';
  if (FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (cells: readonly (string | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;

export class CsvError extends Error {
  constructor(readonly line: number, message: string) {
    super(`line ${line}: ${message}`);
  }
}

/**
 * Parses CSV text into rows of cells, each row with the line it starts on. Stops with a CsvError at an
 * unterminated quote or a quote inside an unquoted cell. Blank lines are skipped.
 */
export function parseCsv(text: string, maxRows: number): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let rowLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a BOM, as spreadsheets write
  let quoted = false;
  let cellStarted = false;
  const endRow = () => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0] === '')) rows.push({ line: rowLine, cells });
    if (rows.length > maxRows) throw new CsvError(rowLine, `more than ${maxRows - 1} rows`);
    cells = [];
    cell = '';
    cellStarted = false;
  };
  for (; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
      continue;
    }
    if (ch === '"') {
      if (cellStarted) throw new CsvError(line, 'a quote inside an unquoted cell');
      quoted = true;
      cellStarted = true;
    } else if (ch === ',') {
      cells.push(cell);
      cell = '';
      cellStarted = false;
    } else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else {
      cell += ch;
      cellStarted = true;
    }
  }
  if (quoted) throw new CsvError(rowLine, 'a quoted cell is not closed');
  if (cell !== '' || cells.length > 0) endRow();
  return rows;
}
