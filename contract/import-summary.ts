// D27 D44: an import's outcome in words, for the server's audit label and the import page's summary line.
import type { ImportResult } from './customers';

type ImportCounts = Pick<ImportResult, 'created' | 'updated' | 'skipped'>;
/** D27: what an import wrote, in words: "12 created, 3 updated, 1 skipped" (its audit entry's label). */
export const importCountsText = (c: ImportCounts): string => `${c.created} created, ${c.updated} updated, ${c.skipped} skipped`;
/** D27 D44: the summary line a person reads: the counts, and the duplicates already up to date. */
export const importSummary = (r: ImportCounts & Pick<ImportResult, 'unchanged'>): string =>
  `${importCountsText(r)}${r.unchanged ? `, ${r.unchanged} already up to date` : ''}`;
