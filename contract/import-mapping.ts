// D60: an import's columns mapped to what they fill (a customer's field, a custom field, the row's service
// location or contact, or nothing), and rows grouped into customers; shared by the server and the import page.

/** D60: where a column goes. `cf.<key>` a custom customer field, `location.cf.<key>` a custom location field. */
export type ImportTarget = string;

/** D60: the name's parts, joined (first, middle, last) when the row's name cell is empty. */
export const NAME_PART_TARGETS = ['first_name', 'middle_name', 'last_name'] as const;
/** D60 D46: the row's service location. */
export const LOCATION_TARGET_FIELDS = ['label', 'address_line', 'city', 'region', 'postal_code', 'country', 'access_notes'] as const;
/** D60 D47: the row's contact. */
export const CONTACT_TARGET_FIELDS = ['name', 'role', 'email', 'phone', 'note'] as const;

/**
 * D60: targets several columns may share: the first filled email and phone are the customer's and the
 * others become contacts; tags are put together; street lines are joined with ', '.
 */
export const MULTI_TARGETS: readonly ImportTarget[] = ['email', 'phone', 'tags', 'address_line', 'location.address_line', 'note'];

export type ImportTargetGroup = 'customer' | 'custom' | 'location' | 'contact';

export const TARGET_GROUP_LABELS: Readonly<Record<ImportTargetGroup, string>> = {
  customer: 'Customer',
  custom: 'Custom fields',
  location: 'Service location',
  contact: 'Contact',
};

/** D60: a target the preview offers for every column, in the words of the import page. */
export interface ImportTargetOption {
  target: ImportTarget;
  label: string;
  group: ImportTargetGroup;
}

/** D60: one column of the file as the preview reads it. */
export interface ImportColumn {
  header: string;
  /** null: not imported. */
  target: ImportTarget | null;
  /** The column's first filled cell among the first rows (cut short), so the person sees what it holds. */
  sample: string;
}

/** D60: where the mapping came from: guessed from the header, the organization's last one for this header, or the person's. */
export type ImportMappingSource = 'guessed' | 'saved' | 'chosen';

/** D60: how rows become customers. `email`: rows sharing one; a number: rows sharing that column's value (0 = first). */
export type ImportGroupBy = 'email' | 'none' | number;

export interface ImportGrouping {
  by: ImportGroupBy;
  /** The customers the file makes (new and existing) and the locations and contacts it adds to new ones. */
  customers: number;
  locations: number;
  contacts: number;
  /** D60: what an update (on_duplicate=update) adds to existing customers: the parts they do not have yet; absent when none. */
  added_locations?: number;
  added_contacts?: number;
}

/** D60: the query parameter `columns`: one target per column, `-` for a column not imported. */
export const NOT_IMPORTED = '-';
export const columnsParam = (columns: readonly Pick<ImportColumn, 'target'>[]): string => columns.map((c) => c.target ?? NOT_IMPORTED).join(',');

/** D60: the preview's summary line, '3 rows → 1 customer, 3 locations'. */
export function groupingText(rows: number, g: ImportGrouping): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const parts = [n(g.customers, 'customer', 'customers')];
  if (g.locations) parts.push(n(g.locations, 'location', 'locations'));
  if (g.contacts) parts.push(n(g.contacts, 'contact', 'contacts'));
  const added = [g.added_locations ? n(g.added_locations, 'location', 'locations') : '', g.added_contacts ? n(g.added_contacts, 'contact', 'contacts') : ''].filter(
    Boolean,
  );
  return `${n(rows, 'row', 'rows')} → ${parts.join(', ')}${added.length ? `; an update adds ${added.join(' and ')} to existing customers` : ''}`;
}
