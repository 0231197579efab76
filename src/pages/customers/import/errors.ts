// D27: the server's refusals of an import, in words and rows.
import type { ImportPreviewRow } from '../../../../contract/customers';
import { isHttpError, isNetworkError } from '../../../http/errors';
import { msgTooLarge } from './file-check';

/** Why the server refused the file, in words (the server's own when it gave some). */
export function importErrorMessage(error: unknown, name: string): string {
  if (isHttpError(error, 413)) return msgTooLarge(name);
  if (isHttpError(error, 403)) return 'You do not have permission to import customers (or to update the ones that already exist).';
  if (isHttpError(error) && error.status < 500 && error.detail) return `${error.detail}.`;
  if (isNetworkError(error)) return 'Could not reach the server. Check your connection and try again.';
  return 'Could not read the file on the server. Please try again.';
}

/** The rows a 400 import_invalid carries (the ones with errors). */
export function invalidRows(error: unknown): ImportPreviewRow[] | null {
  if (!isHttpError(error, 400) || error.code !== 'import_invalid') return null;
  const rows = (error.data as { rows?: unknown } | null)?.rows;
  return Array.isArray(rows) ? (rows as ImportPreviewRow[]) : [];
}
