// D60: the mapping the import page sends with the preview and the import: one target per column and the grouping.
import { columnsParam, type ImportGroupBy } from '../../contract/import-mapping';

/** D60: one target per column (null: not imported) and how rows group into customers. */
export interface ImportMapping {
  columns: readonly (string | null)[];
  groupBy: ImportGroupBy;
}

/** The query parameters `columns` and `group_by` (kept apart from customers.ts, so the pages that do not import do not load this). */
export interface MappingParams {
  columns: string;
  group_by: string;
}
export const mappingParams = (m: ImportMapping): MappingParams => ({ columns: columnsParam(m.columns.map((target) => ({ target }))), group_by: String(m.groupBy) });
