// D27 D43 D44 D60: the import's words: the summary line, how the file was read, and the customers someone
// changed after the preview (left as they were).
import type { ImportDelimiter, ImportEncoding, ImportPreview, ImportResult, PersonRef } from '../../../../contract/customers';
import { importSummary } from '../../../../contract/import-summary';
import { Link } from '../../../router/Link';
import { customerHref } from '../../../router/paths';

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** D27's summary line: "12 created, 3 updated, 1 skipped" (D44: and those already up to date; D60: the new customers' locations and contacts). */
export const resultText = (r: ImportResult): string =>
  importSummary(r) +
  (r.locations || r.contacts
    ? `; ${[r.locations ? count(r.locations, 'location') : '', r.contacts ? count(r.contacts, 'contact') : ''].filter(Boolean).join(' and ')} added`
    : '');

/** D43: how the file was read, in words. */
const ENCODINGS: Record<ImportEncoding, string> = { 'utf-8': 'UTF-8', 'utf-16le': 'UTF-16', 'utf-16be': 'UTF-16', 'windows-1252': 'Windows-1252 (Excel on Windows)' };
const DELIMITERS: Record<ImportDelimiter, string> = { ',': 'commas', ';': 'semicolons', '\t': 'tabs' };
export const readAsText = (p: Pick<ImportPreview, 'encoding' | 'delimiter'>): string =>
  `Read as ${ENCODINGS[p.encoding] ?? p.encoding}, columns separated by ${DELIMITERS[p.delimiter] ?? p.delimiter}.`;

/** D44: the customers the import left alone because someone changed them after the preview, as links. */
export function ChangedSincePreview({ customers }: { customers: readonly PersonRef[] }) {
  if (!customers.length) return null;
  return (
    <div className="import-moved" role="note">
      <p>
        {customers.length === 1 ? '1 customer was' : `${customers.length} customers were`} changed by someone else after the preview, so the file's values were not
        written to them. Check them and import again if needed:
      </p>
      <ul>
        {customers.map((c) => (
          <li key={c.id}>
            <Link to={customerHref(c.id)}>{c.name}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
