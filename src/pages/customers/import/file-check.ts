// D27: what the browser can tell about a file before sending it: a CSV, at most 5 MB. The server checks
// the same (413, 415) and everything inside the file.
import { IMPORT_MAX_BYTES } from '../../../../contract/customers';

/** Types that are CSV whatever the file is called. */
const CSV_TYPES = ['text/csv', 'application/csv'];
const MB = 1024 * 1024;

export const megabytes = (bytes: number): string => `${(bytes / MB).toFixed(1).replace(/\.0$/, '')} MB`;

export const MSG_NOT_CSV = 'Choose a CSV file (a name ending in .csv). Spreadsheets can save one with “Save as… CSV”.';
/** D27: the size in words ("is 6.2 MB", "is over 5 MB" when it rounds to the limit; "is too large" when unknown). */
export function msgTooLarge(name: string, bytes?: number): string {
  const limit = megabytes(IMPORT_MAX_BYTES);
  const size = bytes === undefined ? 'too large' : megabytes(bytes) === limit ? `over ${limit}` : megabytes(bytes);
  return `“${name}” is ${size}; a file can be at most ${limit}. Split it into smaller files and import them one by one.`;
}

/** Why this file cannot be imported, or null when it may be sent. */
export function fileProblem(file: Pick<File, 'name' | 'size' | 'type'>): string | null {
  // The name decides first: browsers label .csv files differently (Windows often as Excel's type).
  if (!/\.csv$/i.test(file.name) && !CSV_TYPES.includes(file.type)) return MSG_NOT_CSV;
  if (file.size > IMPORT_MAX_BYTES) return msgTooLarge(file.name, file.size);
  return null;
}
