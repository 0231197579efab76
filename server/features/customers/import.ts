// D27 D60: a CSV of customers, previewed and then committed. Both steps read the same file the same way
// (D43: its encoding and delimiter; export's formula guard undone), map its columns the same way (guessed,
// the organization's last mapping for this header, or the person's `columns=`), group its rows into
// customers (D60) and check every row alike. D34: the work is bounded: parsing is linear and yields, only
// mapped columns are read, the duplicates are found in a statement per 2,000 emails, and the commit
// (import-apply.ts) writes in a few set-based statements.
import {
  IMPORT_IGNORED_NAMES_SHOWN,
  IMPORT_MAX_ROWS,
  type FieldChanges,
  type ImportDelimiter,
  type ImportEncoding,
  type ImportPreview,
  type ImportPreviewRow,
} from '../../../contract/customers';
import { MAX_CONTACTS, MAX_LOCATIONS, type ContactInput } from '../../../contract/customer-parts';
import type { CustomField } from '../../../contract/custom-fields';
import type { ImportColumn, ImportGroupBy, ImportMappingSource, ImportTarget, ImportTargetOption } from '../../../contract/import-mapping';
import { listFields } from '../../custom-fields';
import { membersOf, type CustomerScope } from '../../customer-scope';
import type { Queryable } from '../../db';
import { HttpError } from '../../http';
import { takeTurns } from '../../turns';
import { CsvError, decodeCsv, detectDelimiter, parseCsv } from './csv-read';
import { defaultGroupBy, groupKey, groupRows, parseGroupBy, sameEmailErrors, uniqueValueErrors, updateOf, type Group, type GroupedRow } from './import-groups';
import { guessColumns, headerHash, isPartsFile, namesSomeone, parseColumns, stillFits, targetOptions } from './import-map';
import { findByEmails, findByNames, heldParts, partsToAdd, type Existing } from './import-repo';
import { loadMapping } from './import-mapping-repo';
import { assignRow, checkRow, rowCells, unguard, type LocationRow } from './import-rows';

export { unguard } from './import-rows';
export type { Existing } from './import-repo';

const IGNORED_NAME_MAX = 100;
/** D60: a column's sample is its first filled cell among this many rows, at most this long. */
const SAMPLE_ROWS = 20;
const SAMPLE_MAX = 60;

/** D60: what the person chose in the preview (the query's `columns` and `group_by`), or nothing. */
export interface MappingChoice {
  columns: string | null;
  groupBy: string | null;
}

/** A customer the file makes, with the live customer that has its email (D27) and what an update writes (D44). */
export interface CheckedGroup extends Group {
  existing: Existing | null;
  merged: Record<string, unknown> | null;
  changes: FieldChanges | null;
  /** D60: for a duplicate, the file's locations and contacts it does not have yet (an update adds them). */
  adds: { locations: LocationRow[]; contacts: ContactInput[]; hadLocations: boolean } | null;
}

export interface CheckedFile {
  fields: CustomField[];
  rows: GroupedRow[];
  groups: CheckedGroup[];
  header: string[];
  columns: ImportColumn[];
  targets: (ImportTarget | null)[];
  options: ImportTargetOption[];
  mapping: ImportMappingSource;
  groupBy: ImportGroupBy;
  ignored: string[];
  ignoredCount: number;
  encoding: ImportEncoding;
  delimiter: ImportDelimiter;
}

/** D60: the columns' targets: the person's, else the organization's last for this header, else guessed. */
async function mappingOf(db: Queryable, orgId: number, header: string[], fields: CustomField[], options: ImportTargetOption[], choice: MappingChoice) {
  const chosenBy = parseGroupBy(choice.groupBy, header);
  if (choice.columns !== null) {
    const targets = parseColumns(choice.columns, header, options);
    return { targets, groupBy: chosenBy ?? defaultGroupBy(targets), mapping: 'chosen' as const };
  }
  const saved = await loadMapping(db, orgId, headerHash(header));
  if (saved && stillFits(saved.columns, header, options) && (typeof saved.groupBy !== 'number' || saved.groupBy < header.length))
    return { targets: saved.columns, groupBy: chosenBy ?? saved.groupBy, mapping: 'saved' as const };
  const targets = guessColumns(header, fields);
  return { targets, groupBy: chosenBy ?? defaultGroupBy(targets), mapping: 'guessed' as const };
}

/** Parses, maps, checks and groups the file: each row's values and errors, each customer's duplicate. */
export async function checkImport(
  db: Queryable,
  /** D59: a duplicate the importer cannot see is refused on its row, naming no one. */
  scope: CustomerScope,
  bytes: Uint8Array,
  charset: string | null,
  choice: MappingChoice = { columns: null, groupBy: null },
): Promise<CheckedFile> {
  const orgId = scope.orgId;
  const { text, encoding } = decodeCsv(bytes, charset);
  const delimiter = detectDelimiter(text);
  let table: { line: number; cells: string[] }[];
  try {
    table = await parseCsv(text, delimiter, IMPORT_MAX_ROWS + 1);
  } catch (err) {
    if (err instanceof CsvError) throw new HttpError(400, 'invalid_csv', `The file is not valid CSV: ${err.message}`);
    throw err;
  }
  const [first, ...data] = table;
  if (!first) throw new HttpError(400, 'invalid_csv', 'The file is empty; it needs a header row naming the columns');
  const header = first.cells;
  const fields = await listFields(db, orgId);
  const options = targetOptions(fields);
  const { targets, groupBy, mapping } = await mappingOf(db, orgId, header, fields, options, choice);
  if (!namesSomeone(targets)) throw new HttpError(400, 'invalid_csv', 'The header row must have a "name" column (or first and last name columns)');
  const ignored = header.flatMap((h, i) => (targets[i] === null ? [h.slice(0, IGNORED_NAME_MAX)] : []));

  const rows: GroupedRow[] = [];
  const partsFile = isPartsFile(header); // D67: everything's locations.csv or contacts.csv
  const members = targets.includes('assigned_to') ? await membersOf(db, orgId) : null; // D59
  const turn = takeTurns(); // D34: 10,000 rows, then 10,000 customers, are a few hundred ms of work
  for (const { line, cells } of data) {
    await turn();
    const gathered = rowCells(cells, targets);
    const parts = checkRow(gathered, fields);
    const filled = new Set(Object.keys(gathered.one).filter((t) => (gathered.one[t] ?? '').trim() !== ''));
    if (gathered.emails.length) filled.add('email');
    if (gathered.phones.length) filled.add('phone');
    if (members && filled.has('assigned_to')) assignRow(parts, members.find(gathered.one.assigned_to!), scope);
    const row: GroupedRow = { line, values: gathered.values, errors: parts.errors, duplicate: null, changes: null, parts, filled, cells, key: null };
    // D67: a parts file's rows of a customer without an email are that customer's by name.
    row.key = groupKey(groupBy, row) ?? (partsFile && typeof parts.input.name === 'string' ? `name:${parts.input.name.toLowerCase()}` : null);
    rows.push(row);
  }
  const grouped = groupRows(rows);
  const emails = sameEmailErrors(grouped);
  const byEmail = await findByEmails(db, scope, emails);
  const byName = partsFile
    ? await findByNames(
        db,
        scope,
        grouped.filter((g) => typeof g.input.email !== 'string').map((g) => String(g.input.name ?? '')),
      )
    : new Map();
  // D34: the parts held are looked up only when the file brings some (a file of customers alone costs no statement more).
  const bringsParts = grouped.some((g) => g.locations.length > 0 || g.contacts.length > 0);
  const held = await heldParts(db, orgId, bringsParts ? [...byEmail.values(), ...[...byName.values()].flat()].filter((e) => e.seen).map((e) => e.id) : []);
  const checkGroup = (g: Group): CheckedGroup => {
    const email = typeof g.input.email === 'string' ? g.input.email : null;
    const named = email ? [] : (byName.get(String(g.input.name ?? '').toLowerCase()) ?? []);
    if (named.length > 1) g.lead.errors.push({ field: 'name', detail: `names ${named.length} customers without an email; give each an email first` });
    const existing = (email && byEmail.get(email)) || (named.length === 1 ? named[0]! : null);
    if (!existing) return { ...g, existing: null, merged: null, changes: null, adds: null };
    if (!existing.seen) {
      g.lead.errors.push({ field: 'email', detail: 'Another customer already has this email' }); // D59: naming no one
      return { ...g, existing: null, merged: null, changes: null, adds: null };
    }
    g.lead.duplicate = { id: existing.id, name: existing.name, version: existing.version };
    const { merged, changes } = updateOf(existing, g, fields, members);
    if (g.rows.every((r) => !r.errors.length)) g.lead.changes = changes;
    const has = held.get(existing.id) ?? { addresses: new Set<string>(), emails: new Set<string>(), phones: new Set<string>(), locations: 0, contacts: 0 };
    const adds = { ...partsToAdd(has, g.locations, g.contacts), hadLocations: has.locations > 0 };
    if (has.locations + adds.locations.length > MAX_LOCATIONS)
      g.lead.errors.push({ field: 'location.label', detail: `would give the customer more than ${MAX_LOCATIONS} locations` });
    if (has.contacts + adds.contacts.length > MAX_CONTACTS)
      g.lead.errors.push({ field: 'contact.name', detail: `would give the customer more than ${MAX_CONTACTS} contacts` });
    if (adds.locations.length || adds.contacts.length) g.lead.adds = { locations: adds.locations.length, contacts: adds.contacts.length };
    return { ...g, existing, merged, changes, adds };
  };
  const groups: CheckedGroup[] = [];
  for (const g of grouped) {
    await turn();
    groups.push(checkGroup(g));
  }
  const sample = (i: number) => (data.slice(0, SAMPLE_ROWS).find((r) => (r.cells[i] ?? '').trim())?.cells[i] ?? '').trim().slice(0, SAMPLE_MAX);
  for (const { group, field, detail } of await uniqueValueErrors(db, orgId, fields, groups, scope.assignedTo === null)) {
    group.lead.errors.push({ field, detail });
    group.lead.changes = null;
  }
  const columns = header.map((h, i) => ({ header: h.slice(0, IGNORED_NAME_MAX), target: targets[i] ?? null, sample: unguard(sample(i)) }));
  return {
    fields,
    rows,
    groups,
    header,
    columns,
    targets,
    options,
    mapping,
    groupBy,
    ignored: ignored.slice(0, IMPORT_IGNORED_NAMES_SHOWN),
    ignoredCount: ignored.length,
    encoding,
    delimiter,
  };
}

/** A row as the preview answers it (D27); `joins` only on a row that adds to another row's customer (D60). */
export const rowView = ({ line, values, errors, duplicate, changes, joins, adds }: GroupedRow): ImportPreviewRow => ({
  line,
  values,
  errors,
  duplicate,
  changes,
  ...(joins === undefined ? {} : { joins }),
  ...(adds ? { adds } : {}),
});

export async function previewImport(
  db: Queryable,
  scope: CustomerScope,
  bytes: Uint8Array,
  charset: string | null,
  now: Date,
  choice?: MappingChoice,
): Promise<ImportPreview> {
  const file = await checkImport(db, scope, bytes, charset, choice);
  const { rows, groups } = file;
  const invalid = rows.filter((r) => r.errors.length).length;
  const fresh = groups.filter((g) => !g.existing);
  return {
    rows: rows.map(rowView),
    ignored_columns: file.ignored,
    ignored_column_count: file.ignoredCount,
    encoding: file.encoding,
    delimiter: file.delimiter,
    previewed_at: now.toISOString(),
    summary: {
      total: rows.length,
      valid: rows.length - invalid,
      invalid,
      duplicates: rows.filter((r) => r.duplicate).length,
      unchanged: rows.filter((r) => r.changes && Object.keys(r.changes).length === 0 && !r.adds).length,
    },
    columns: file.columns,
    targets: file.options,
    mapping: file.mapping,
    grouping: {
      by: file.groupBy,
      customers: groups.length,
      locations: fresh.reduce((n, g) => n + g.locations.length, 0),
      contacts: fresh.reduce((n, g) => n + g.contacts.length, 0),
      ...addedTo(groups),
    },
  };
}

/** D60: what updates would add to duplicates (on_duplicate=update): 'adds 1 location'. */
function addedTo(groups: CheckedGroup[]) {
  const adds = groups.filter((g) => g.adds);
  const locations = adds.reduce((n, g) => n + g.adds!.locations.length, 0);
  const contacts = adds.reduce((n, g) => n + g.adds!.contacts.length, 0);
  return locations || contacts ? { added_locations: locations, added_contacts: contacts } : {};
}
