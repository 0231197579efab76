// D60: the mapping the import page sends with the preview and the import: one target per column and the grouping.
import { columnsParam, type ImportGroupBy } from '../../contract/import-mapping';

/** D60: one target per column (null: not imported) and how rows group into customers. */
export interface ImportMapping {
  columns: readonly (string | null)[];
  groupBy: ImportGroupBy;
}

/** The query parameters `columns` and `group_by`, or none (the server guesses, or offers the last mapping). */
export const mappingParams = (m: ImportMapping | undefined): Record<string, string> =>
  m ? { columns: columnsParam(m.columns.map((target) => ({ target }))), group_by: String(m.groupBy) } : {};
