// D22 D26: the customer record's fields and limits and the list's options, shared by the app's form and
// the server's checks so both refuse the same input.
import type { AuditEntryView } from './audit';
import type { CustomerContact, CustomerLocation } from './customer-parts';
import type { CustomValues } from './custom-fields';
import type { ImportColumn, ImportGrouping, ImportMappingSource, ImportTargetOption } from './import-mapping';

export const CUSTOMER_STATUSES = ['lead', 'active', 'inactive'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];
export const DEFAULT_CUSTOMER_STATUS: CustomerStatus = 'active';
/** D22: each status as the app names it (its tone is app.css's, by `data-status`: ui/status.tsx). */
export const CUSTOMER_STATUS_LABELS: Readonly<Record<CustomerStatus, string>> = { lead: 'Lead', active: 'Active', inactive: 'Inactive' };

/** The longest email address (RFC 5321's path limit): a customer's, a login's or an invitation's. Here, not in
 * matching.ts, so the pages that need only customers' shapes do not bring matching along. */
export const EMAIL_MAX_LENGTH = 254;

/** D22: maximum characters per text field (after trimming). */
export const CUSTOMER_TEXT_LIMITS = {
  name: 200,
  company: 200,
  email: EMAIL_MAX_LENGTH,
  phone: 40,
  address_line: 200,
  city: 200,
  region: 200,
  postal_code: 200,
  country: 200,
} as const;
export type CustomerTextField = keyof typeof CUSTOMER_TEXT_LIMITS;

export const PHONE_MIN_DIGITS = 7; // D22
export const MAX_TAGS = 20; // D22
export const TAG_MAX_LENGTH = 30; // D22
export const NOTE_MAX_LENGTH = 5_000; // D24
/** D25: how long a deleted customer can be restored before housekeeping removes it for good. */
export const RESTORE_WINDOW_DAYS = 30;

/** D48: a customer's type (the first is the default), and the limits of its source and flag reason. */
export const CUSTOMER_TYPES = ['residential', 'commercial'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];
/** D48: each type as the app names it. */
export const CUSTOMER_TYPE_LABELS: Readonly<Record<CustomerType, string>> = { residential: 'Residential', commercial: 'Commercial' };
export const LEAD_SOURCE_MAX_LENGTH = 100;
export const DO_NOT_SERVICE_REASON_MAX_LENGTH = 500;

/** D26: page sizes a person can choose; the first is the default. */
export const PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = PAGE_SIZES[0];
export const SEARCH_MAX_LENGTH = 100;
/** D26: a search or tag filter counts its matches up to this many (or to the page's end, if further); past it, 'more than'. */
export const LIST_COUNT_BOUND = 10_000;
/** D26: the list's sorts; a leading '-' is descending. */
export const CUSTOMER_SORTS = ['name', '-name', 'created_at', '-created_at', 'updated_at', '-updated_at'] as const;
/** D48: by status and by the list's city too (the server takes them; the app offers them with its part of issue 19). */
export const SERVICE_SORTS = ['status', '-status', 'city', '-city'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number] | (typeof SERVICE_SORTS)[number];
export const DEFAULT_CUSTOMER_SORT: CustomerSort = 'name';

/** D22: control characters (C0, DEL and C1) are refused in every text field (tab and newline included: all are single-line). */
export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

/** The person shown as who did something (their first name, as the product greets them). */
export interface PersonRef {
  id: number;
  name: string;
}

/** D22: a customer as GET /v1/customers/{id}/ answers it. */
export interface Customer {
  id: number;
  name: string;
  company: string | null;
  email: string | null;
  phone: string | null;
  address_line: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
  status: CustomerStatus;
  tags: string[];
  /** D48 */
  type: CustomerType;
  lead_source: string | null;
  do_not_service: boolean;
  do_not_service_reason: string | null;
  created_at: string;
  created_by: PersonRef | null;
  updated_at: string;
  updated_by: PersonRef | null;
  /** D31: sent back with a PATCH; a stale one is a 409 conflict. */
  version: number;
  /** D46: the service locations, the primary first; D47: the other contacts, oldest first. */
  locations: CustomerLocation[];
  contacts: CustomerContact[];
  /** D56: the values of the organization's custom fields that are set, archived fields left out. */
  custom: CustomValues;
  /** D59: the member the customer is assigned to, or none. */
  assigned_to: PersonRef | null;
}

/** The fields a person writes (POST body; PATCH takes any subset plus `version`). */
export const CUSTOMER_INPUT_FIELDS = ['name', 'company', 'email', 'phone', 'address_line', 'city', 'region', 'postal_code', 'country', 'status', 'tags'] as const;
export type CustomerInputField = (typeof CUSTOMER_INPUT_FIELDS)[number];
export type CustomerInput = Pick<Customer, CustomerInputField>;
/** D48: the fields the record gained with locations and contacts (the CSV carries them too). */
export const CUSTOMER_SERVICE_FIELDS = ['type', 'lead_source', 'do_not_service', 'do_not_service_reason'] as const;
export type CustomerServiceField = (typeof CUSTOMER_SERVICE_FIELDS)[number];
export type CustomerServiceInput = Pick<Customer, CustomerServiceField>;
/** D27 D48: the fields a CSV import reads and an export writes (D46 D47: locations and contacts are not in the CSV). */
export type ImportField = CustomerInputField | CustomerServiceField;

/** D26: a row of GET /v1/customers/ (and of its 'Deleted' view, which adds deleted_at and deleted_by). */
export interface CustomerListItem {
  id: number;
  name: string;
  company: string | null;
  email: string | null;
  phone: string | null;
  /** D46: the primary location's city, else the billing city. */
  city: string | null;
  status: CustomerStatus;
  tags: string[];
  type: CustomerType;
  do_not_service: boolean;
  created_at: string;
  updated_at: string;
  /** D56, as the customer's. */
  custom: CustomValues;
  /** D59, as the customer's. */
  assigned_to: PersonRef | null;
  deleted_at?: string;
  deleted_by?: PersonRef | null;
}

export interface Page<T> {
  count: number;
  /**
   * D26: present, and false, when `count` is a bound rather than the total: there are more than `count`
   * (a search matching more than LIST_COUNT_BOUND stops counting there; behaviour.md). Absent: exact.
   */
  count_exact?: false;
  results: T[];
}

/** D23: GET /v1/customers/duplicates/ rows: live customers sharing the email, the phone digits or the name (folded). */
export interface DuplicateMatch {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  match: 'email' | 'phone' | 'name';
  /** D47: the contact whose email or phone matched; null when it was the customer's own. */
  contact: { id: number; name: string } | null;
}

/** D24: a note on a customer. */
export interface Note {
  id: number;
  body: string;
  author: PersonRef | null;
  created_at: string;
  updated_at: string;
}

/** D24: the customer's timeline, newest first: its notes and every audit entry about it. */
export type TimelineItem = ({ kind: 'note' } & Note) | ({ kind: 'audit' } & AuditEntryView);

/** D27: import limits. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;
/** D34: a header (or any row) with more columns than this is refused. */
export const IMPORT_MAX_COLUMNS = 200;
/** D34: the preview names at most this many ignored columns (and counts them all). */
export const IMPORT_IGNORED_NAMES_SHOWN = 20;
/** D34: a preview cell longer than this is cut (no field takes that much; the row has an error). */
export const IMPORT_PREVIEW_CELL_MAX = 1_000;
export type ImportDuplicateMode = 'skip' | 'update';
/** D43: how the file was read. */
export type ImportEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
export type ImportDelimiter = ',' | ';' | '\t';

/** D31 D44: a field's value before and after a change. */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/** D27: one row of an import preview (line numbers count the header as line 1). */
export interface ImportPreviewRow {
  line: number;
  /** By target (D60): the customer's fields by name, `cf.<key>`, `location.<field>`, `contact.<field>`. */
  values: Partial<Record<ImportField, string>> & Record<string, string>;
  errors: { field: string; detail: string }[];
  /** D27: the live customer with this email, and its version when the preview was made (D44). */
  duplicate: (PersonRef & { version: number }) | null;
  /** D44: for a duplicate, what on_duplicate=update would change (empty when nothing); null otherwise. */
  changes: FieldChanges | null;
  /** D60: the line of the row whose customer this row adds to (its location and contacts); absent on a customer's first row. */
  joins?: number;
  /** D60: for a duplicate, the locations and contacts an update adds (those it does not have yet); absent when none. */
  adds?: { locations: number; contacts: number };
}

export interface ImportPreview {
  rows: ImportPreviewRow[];
  /** Header names that are not D22 fields (ignored): the first IMPORT_IGNORED_NAMES_SHOWN of them. */
  ignored_columns: string[];
  /** D34: how many columns are ignored in all. */
  ignored_column_count: number;
  /** D43: the encoding and the delimiter the file was read with. */
  encoding: ImportEncoding;
  delimiter: ImportDelimiter;
  /** D44: sent back with the import (`previewed_at`): a duplicate changed after it is reported, not overwritten. */
  previewed_at: string;
  summary: { total: number; valid: number; invalid: number; duplicates: number; unchanged: number };
  /** D60: each column and its target, the targets offered, where the mapping came from, and the rows as customers. */
  columns: ImportColumn[];
  targets: ImportTargetOption[];
  mapping: ImportMappingSource;
  grouping: ImportGrouping;
}

export interface ImportResult {
  /** D60: the locations and contacts added to the new customers (present when there are any). */
  locations?: number;
  contacts?: number;
  created: number;
  updated: number;
  /** D44: duplicates that already had the file's values (nothing written). */
  unchanged: number;
  skipped: number;
  /** D44: duplicates edited (or created) after the preview: left as they are, and skipped. */
  changed_since_preview: PersonRef[];
}

/** D32 "this week" and "this month": the last 7 and 30 days (an organization has no time zone of its own). */
export const NEW_THIS_WEEK_DAYS = 7;
export const NEW_THIS_MONTH_DAYS = 30;

/** D32: GET /v1/dashboard/. Parts the caller may not see are null. */
export interface DashboardData {
  customers: {
    total: number;
    by_status: Record<CustomerStatus, number>;
    new_this_week: number;
    new_this_month: number;
    recently_updated: CustomerListItem[];
  } | null;
  activity: AuditEntryView[] | null;
}
