// D43 D34: reading an uploaded CSV file. The bytes are decoded as UTF-8 (with or without a BOM), UTF-16
// with a BOM, or otherwise Windows-1252 (Excel's 'CSV' on Windows); the delimiter (comma, semicolon or
// tab) is the one the header row uses. Parsing is one pass over the text, gives the event loop back
// every YIELD_EVERY characters, and stops at the first row wider than the column limit.
import type { IncomingMessage } from 'node:http';
import { IMPORT_MAX_COLUMNS, type ImportDelimiter, type ImportEncoding } from '../../../contract/customers';
import { HttpError } from '../../http';

/** Characters parsed between two turns of the event loop (a few milliseconds of work). */
const YIELD_EVERY = 128 * 1024;
const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class CsvError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** Charset labels a request may declare (WHATWG names them so; latin1 and ISO-8859-1 are read as Windows-1252). */
const DECLARED: Record<string, ImportEncoding> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
  'utf-16': 'utf-16le',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  'iso-8859-1': 'windows-1252',
  latin1: 'windows-1252',
  'us-ascii': 'windows-1252',
};
export const isReadableCharset = (charset: string) => charset in DECLARED;

/** The charset a request declares in its Content-Type, if any (lower case). */
export function charsetOf(req: IncomingMessage): string | null {
  const m = /;\s*charset="?([^";\s]+)/i.exec(req.headers['content-type'] ?? '');
  return m?.[1]?.toLowerCase() ?? null;
}

/**
 * D43: the text of the file and the encoding it was read in. A BOM decides; then a declared charset;
 * then UTF-8 if the bytes are valid UTF-8, otherwise Windows-1252 (all but five bytes are characters there).
 */
export function decodeCsv(bytes: Uint8Array, declared: string | null): { text: string; encoding: ImportEncoding } {
  const [a, b, c] = bytes;
  const bom: ImportEncoding | null =
    a === 0xef && b === 0xbb && c === 0xbf ? 'utf-8' : a === 0xff && b === 0xfe ? 'utf-16le' : a === 0xfe && b === 0xff ? 'utf-16be' : null;
  const chosen = bom ?? (declared ? (DECLARED[declared] ?? null) : null);
  const tryDecode = (encoding: ImportEncoding) => {
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(bytes); // drops the BOM of its own encoding
    } catch {
      return null;
    }
  };
  if (chosen === 'windows-1252') return { text: decodeWindows1252(bytes), encoding: chosen };
  if (chosen) {
    const text = tryDecode(chosen);
    if (text === null) throw new HttpError(400, 'invalid_body', `The file is not valid ${ENCODING_NAMES[chosen]}`);
    return { text, encoding: chosen };
  }
  const utf8 = tryDecode('utf-8');
  if (utf8 !== null) return { text: utf8, encoding: 'utf-8' };
  return { text: decodeWindows1252(bytes), encoding: 'windows-1252' };
}

/**
 * D43: what Windows-1252 makes of bytes 0x80–0x9F (curly quotes, dashes, €, …); 0 for the five it leaves
 * undefined. Node's own decoder reads these bytes as Latin-1's control characters.
 */
const WINDOWS_1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013,
  0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/** Characters made into a string at a time (an argument list has a limit). */
const DECODE_CHUNK = 8_192;

/** The line (1-based, CRLF, LF or CR ending each) of the byte at `at`, as the CSV parser counts lines. */
function lineOf(bytes: Uint8Array, at: number): number {
  let line = 1;
  for (let i = 0; i < at; i++) if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) line++;
  return line;
}

/** D43: Windows-1252 as Windows reads it; a byte it does not define is a 400 naming its line. */
export function decodeWindows1252(bytes: Uint8Array): string {
  const units = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x80 || b > 0x9f) units[i] = b;
    else {
      const ch = WINDOWS_1252_HIGH[b - 0x80]!;
      if (ch === 0) {
        const hex = `0x${b.toString(16).toUpperCase()}`;
        throw new HttpError(
          400,
          'invalid_body',
          `The file is not valid Windows-1252: line ${lineOf(bytes, i)} has the byte ${hex}, which Windows-1252 does not define (save the file as 'CSV UTF-8' and import it again)`,
        );
      }
      units[i] = ch;
    }
  }
  let text = '';
  for (let i = 0; i < units.length; i += DECODE_CHUNK) text += String.fromCharCode(...units.subarray(i, i + DECODE_CHUNK));
  return text;
}

export const ENCODING_NAMES: Record<ImportEncoding, string> = { 'utf-8': 'UTF-8', 'utf-16le': 'UTF-16 LE', 'utf-16be': 'UTF-16 BE', 'windows-1252': 'Windows-1252' };

/** D43: the delimiter the header row uses most (outside quotes); a comma when it uses none. */
export function detectDelimiter(text: string): ImportDelimiter {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch]++;
  }
  return counts[';'] > counts[','] && counts[';'] >= counts['\t'] ? ';' : counts['\t'] > counts[','] ? '\t' : ',';
}

export interface CsvRow {
  line: number;
  cells: string[];
}

/**
 * RFC 4180 with the given delimiter: rows of cells, each with the line it starts on. CRLF or LF, quoted
 * cells, blank lines skipped. A CsvError at an unterminated quote, a quote inside an unquoted cell, a
 * row of more than IMPORT_MAX_COLUMNS cells, or more than maxRows rows (the header counts).
 */
export async function parseCsv(text: string, delimiter: ImportDelimiter, maxRows: number): Promise<CsvRow[]> {
  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let line = 1;
  let rowLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a BOM a decoder left in
  let nextYield = i + YIELD_EVERY;
  const endCell = (cell: string) => {
    if (cells.length >= IMPORT_MAX_COLUMNS) {
      throw new CsvError(rowLine, `more than ${IMPORT_MAX_COLUMNS} columns (at most ${IMPORT_MAX_COLUMNS} are read)`);
    }
    cells.push(cell);
  };
  const endRow = () => {
    if (!(cells.length === 1 && cells[0] === '')) rows.push({ line: rowLine, cells });
    if (rows.length > maxRows) throw new CsvError(rowLine, `more than ${maxRows - 1} rows`);
    cells = [];
  };
  const n = text.length;
  while (i <= n) {
    if (i >= nextYield) {
      await yieldLoop();
      nextYield = i + YIELD_EVERY;
    }
    // One cell, starting at i.
    let cell: string;
    if (text[i] === '"') {
      let parts = '';
      let from = i + 1;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q < 0) throw new CsvError(rowLine, 'a quoted cell is not closed');
        parts += text.slice(from, q);
        if (text[q + 1] === '"') {
          parts += '"';
          from = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      for (let k = parts.indexOf('\n'); k >= 0; k = parts.indexOf('\n', k + 1)) line++;
      cell = parts;
      const after = text[i];
      if (i < n && after !== delimiter && after !== '\r' && after !== '\n') throw new CsvError(line, 'a quote inside an unquoted cell');
    } else {
      let j = i;
      while (j < n) {
        const ch = text[j];
        if (ch === delimiter || ch === '\r' || ch === '\n') break;
        if (ch === '"') throw new CsvError(line, 'a quote inside an unquoted cell');
        j++;
      }
      cell = text.slice(i, j);
      i = j;
    }
    endCell(cell);
    if (i >= n) {
      if (!(cells.length === 1 && cells[0] === '')) endRow();
      break;
    }
    const ch = text[i];
    if (ch === delimiter) {
      i++;
      if (i === n) {
        endCell('');
        endRow();
        break;
      }
      continue;
    }
    // A line break ends the row.
    i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    endRow();
    line++;
    rowLine = line;
  }
  return rows;
}
