// D60: which field each column of a file fills. Guessed from the header with case, accents, spaces and
// punctuation folded ('E-mail 2 Address' → 'email2address') and the names other systems' exports use
// (Google Contacts, Outlook, spreadsheets of one row per property); or as the person chose (`columns=`).
import { createHash } from 'node:crypto';
import type { CustomField } from '../../../contract/custom-fields';
import { fold } from '../../../contract/fold';
import { CONTACT_TARGET_FIELDS, LOCATION_TARGET_FIELDS, MULTI_TARGETS, NOT_IMPORTED, type ImportTarget, type ImportTargetOption } from '../../../contract/import-mapping';
import { fieldError } from '../../http';
import { IMPORT_FIELDS } from './import-checks';

/** A header as the guess compares it: folded, letters and digits only (of any script: a label '日本語' is its letters). */
export const headerKey = (h: string) => fold(h.trim()).replace(/[^\p{L}\p{N}]/gu, '');

/** D60: the organization's last mapping is found by the header row it was made for. */
export const headerHash = (header: readonly string[]) => createHash('sha256').update(header.map(headerKey).join('\u0001')).digest('hex');

const LOCATION_LABELS: Record<string, string> = {
  label: 'Label',
  address_line: 'Street',
  city: 'City',
  region: 'Region',
  postal_code: 'Postal code',
  country: 'Country',
  access_notes: 'Access notes',
};
const CUSTOMER_LABELS: Record<string, string> = {
  name: 'Name',
  first_name: 'First name',
  middle_name: 'Middle name',
  last_name: 'Last name',
  company: 'Company',
  email: 'Email',
  phone: 'Phone',
  address_line: 'Street (billing)',
  city: 'City (billing)',
  region: 'Region (billing)',
  postal_code: 'Postal code (billing)',
  country: 'Country (billing)',
  status: 'Status',
  tags: 'Tags',
  type: 'Type',
  lead_source: 'Lead source',
  do_not_service: 'Do not service',
  do_not_service_reason: 'Do-not-service reason',
  note: 'Note on the customer',
  assigned_to: 'Assigned to', // D59: a member's email, or their first name when no other member has it
};
const CONTACT_LABELS: Record<string, string> = { name: 'Name', role: 'Role', email: 'Email', phone: 'Phone', note: 'Note' };

/** D60: every target a column may take, grouped as the import page's select shows them. */
export function targetOptions(fields: readonly CustomField[]): ImportTargetOption[] {
  const live = fields.filter((f) => !f.archived);
  return [
    ...Object.entries(CUSTOMER_LABELS).map(([target, label]) => ({ target, label, group: 'customer' as const })),
    ...live.filter((f) => f.record_kind === 'customer').map((f) => ({ target: `cf.${f.key}`, label: f.label, group: 'custom' as const })),
    ...LOCATION_TARGET_FIELDS.map((f) => ({ target: `location.${f}`, label: LOCATION_LABELS[f]!, group: 'location' as const })),
    ...live.filter((f) => f.record_kind === 'location').map((f) => ({ target: `location.cf.${f.key}`, label: f.label, group: 'location' as const })),
    ...CONTACT_TARGET_FIELDS.map((f) => ({ target: `contact.${f}`, label: CONTACT_LABELS[f]!, group: 'contact' as const })),
  ];
}

const ADDRESS_PARTS: Record<string, string> = {
  street: 'address_line',
  street2: 'address_line',
  street3: 'address_line',
  address: 'address_line',
  addressline: 'address_line',
  addressline1: 'address_line',
  addressline2: 'address_line',
  streetaddress: 'address_line',
  extendedaddress: 'address_line',
  city: 'city',
  town: 'city',
  state: 'region',
  region: 'region',
  province: 'region',
  stateprovince: 'region',
  postalcode: 'postal_code',
  zip: 'postal_code',
  zipcode: 'postal_code',
  postcode: 'postal_code',
  country: 'country',
  countryregion: 'country',
};

/** D60: the common names of each target, folded. Outlook's Business address is the billing one, Home the service location. */
const SYNONYMS: Record<string, ImportTarget> = {
  ...Object.fromEntries(['fullname', 'customername', 'customer', 'displayname', 'clientname', 'client'].map((k) => [k, 'name'])),
  ...Object.fromEntries(['firstname', 'givenname', 'first', 'fname', 'forename'].map((k) => [k, 'first_name'])),
  ...Object.fromEntries(['middlename', 'additionalname', 'middle'].map((k) => [k, 'middle_name'])),
  ...Object.fromEntries(['lastname', 'familyname', 'surname', 'last', 'lname'].map((k) => [k, 'last_name'])),
  ...Object.fromEntries(['companyname', 'organization', 'organisation', 'organizationname', 'organization1name', 'business', 'businessname'].map((k) => [k, 'company'])),
  ...Object.fromEntries(['emailaddress', 'mail', 'primaryemail', 'workemail', 'homeemail', 'otheremail'].map((k) => [k, 'email'])),
  ...Object.fromEntries(
    [
      'phonenumber',
      'telephone',
      'tel',
      'mobile',
      'mobilephone',
      'cell',
      'cellphone',
      'businessphone',
      'businessphone2',
      'homephone',
      'homephone2',
      'primaryphone',
      'otherphone',
      'companymainphone',
      'carphone',
      'workphone',
    ].map((k) => [k, 'phone']),
  ),
  ...Object.fromEntries(Object.entries(ADDRESS_PARTS).map(([k, t]) => [k, t])),
  ...Object.fromEntries(Object.entries(ADDRESS_PARTS).flatMap(([k, t]) => ['business', 'billing', 'address1', 'mailing'].map((p) => [`${p}${k}`, t]))),
  ...Object.fromEntries(
    Object.entries(ADDRESS_PARTS).flatMap(([k, t]) => ['home', 'service', 'property', 'site', 'job', 'location', 'address2'].map((p) => [`${p}${k}`, `location.${t}`])),
  ),
  ...Object.fromEntries(['tag', 'labels', 'groupmembership', 'categories', 'groups'].map((k) => [k, 'tags'])),
  customertype: 'type',
  ...Object.fromEntries(['assignee', 'technician', 'assignedtechnician'].map((k) => [k, 'assigned_to'])), // D59
  ...Object.fromEntries(['source', 'referredby', 'referralsource', 'howdidyouhearaboutus'].map((k) => [k, 'lead_source'])),
  ...Object.fromEntries(['notes', 'comments', 'comment'].map((k) => [k, 'note'])),
  ...Object.fromEntries(['locationname', 'locationlabel', 'propertyname', 'property', 'sitename', 'servicelocation', 'site'].map((k) => [k, 'location.label'])),
  ...Object.fromEntries(['accessnotes', 'gatecode', 'accessinstructions', 'entrynotes'].map((k) => [k, 'location.access_notes'])),
  ...Object.fromEntries(
    CONTACT_TARGET_FIELDS.flatMap((f) => ['contact', 'tenant', 'sitecontact', 'contactperson'].map((p) => [`${p}${f === 'note' ? 'notes' : f}`, `contact.${f}`])),
  ),
  contactperson: 'contact.name',
  tenant: 'contact.name',
  relationship: 'contact.role',
  contactemailaddress: 'contact.email',
  contactphonenumber: 'contact.phone',
};

/** Google's numbered columns: 'E-mail 2 - Value', 'Phone 1 - Value', 'Address 2 - City' (as folded). */
function numbered(key: string): ImportTarget | null {
  if (/^email\d+(value|address)$/.test(key)) return 'email';
  if (/^phone\d+value$/.test(key)) return 'phone';
  const address = /^address(\d+)(street|city|region|postalcode|country|extendedaddress)$/.exec(key);
  if (address) {
    const field = ADDRESS_PARTS[address[2]!]!;
    return address[1] === '1' ? field : `location.${field}`;
  }
  return null;
}

const own = (o: Record<string, ImportTarget>, k: string) => (Object.hasOwn(o, k) ? o[k]! : null);

/** D60: one header's target, or null: our own names first, then the custom fields' labels and keys, then synonyms. */
function guessOne(header: string, custom: Record<string, ImportTarget>): ImportTarget | null {
  const key = headerKey(header);
  if (!key) return null;
  const builtIn = [...IMPORT_FIELDS, 'note', 'assigned_to'].find((f) => f.replace(/_/g, '') === key);
  return builtIn ?? own(custom, key) ?? own(SYNONYMS, key) ?? numbered(key);
}

/** D67: everything's export's locations.csv or contacts.csv, by their own first three columns (not any file's 'Customer Name'). */
export const isPartsFile = (header: readonly string[]) => ['customerid', 'customername', 'customeremail'].every((k, i) => headerKey(header[i] ?? '') === k);

/**
 * D67 D60: the locations.csv and contacts.csv of everything's export, read back: a row names its customer
 * (customer_email, customer_name) and is one of its locations or contacts. Known by their header; null for
 * any other file.
 */
function partsColumns(header: readonly string[], fields: readonly CustomField[]): (ImportTarget | null)[] | null {
  const keys = header.map(headerKey);
  const kind = !isPartsFile(header) ? null : keys.includes('label') ? 'location' : keys.includes('role') ? 'contact' : null;
  if (!kind) return null;
  const own: readonly string[] = kind === 'location' ? LOCATION_TARGET_FIELDS : CONTACT_TARGET_FIELDS;
  const custom = new Map(fields.filter((f) => f.record_kind === 'location' && !f.archived).map((f) => [headerKey(f.label), `location.cf.${f.key}`]));
  return keys.map((k) => {
    if (k === 'customername') return 'name';
    if (k === 'customeremail') return 'email';
    const field = own.find((f) => f.replace(/_/g, '') === k);
    if (field) return `${kind}.${field}`;
    return kind === 'location' ? (custom.get(k) ?? null) : null; // customer_id and primary are the export's own
  });
}

/** D60: each column's guessed target; a target one column only may fill goes to the first column that names it. */
export function guessColumns(header: readonly string[], fields: readonly CustomField[]): (ImportTarget | null)[] {
  const parts = partsColumns(header, fields);
  if (parts) return parts;
  const custom: Record<string, ImportTarget> = {};
  for (const f of fields.filter((f) => !f.archived)) {
    const target = f.record_kind === 'customer' ? `cf.${f.key}` : `location.cf.${f.key}`;
    const prefix = f.record_kind === 'customer' ? '' : 'location';
    for (const k of [headerKey(`${prefix}${f.label}`), headerKey(`${prefix}${f.key}`), headerKey(target)]) custom[k] ??= target;
  }
  const taken = new Set<ImportTarget>();
  return header.map((h) => {
    const target = guessOne(h, custom);
    if (target === null || (taken.has(target) && !MULTI_TARGETS.includes(target))) return null;
    taken.add(target);
    return target;
  });
}

const columnName = (header: readonly string[], i: number) => `column ${i + 1} ("${(header[i] ?? '').slice(0, 60)}")`;

/** D60: the person's `columns=` (one target per column, `-` for none) checked: 400 naming the column. */
export function parseColumns(param: string, header: readonly string[], options: readonly ImportTargetOption[]): (ImportTarget | null)[] {
  const given = param.split(',').map((t) => t.trim());
  if (given.length !== header.length) throw fieldError('columns', `names ${given.length} columns; the file has ${header.length}`);
  const known = new Set(options.map((o) => o.target));
  const firstOf = new Map<ImportTarget, number>();
  return given.map((t, i) => {
    if (t === '' || t === NOT_IMPORTED) return null;
    if (!known.has(t)) throw fieldError('columns', `${columnName(header, i)}: "${t.slice(0, 60)}" is not a field an import fills`);
    const first = firstOf.get(t);
    if (first !== undefined && !MULTI_TARGETS.includes(t))
      throw fieldError('columns', `${columnName(header, i)} and ${columnName(header, first)} both fill "${t}"; only one may`);
    firstOf.set(t, i);
    return t;
  });
}

/** D60: a saved mapping still fits when each of its targets is still offered (a custom field may be gone). */
export function stillFits(saved: readonly (ImportTarget | null)[], header: readonly string[], options: readonly ImportTargetOption[]): boolean {
  const known = new Set(options.map((o) => o.target));
  return saved.length === header.length && saved.every((t) => t === null || known.has(t));
}

/** D27 D60: a file needs a column for the name: the name itself or one of its parts. */
export const namesSomeone = (targets: readonly (ImportTarget | null)[]) => targets.some((t) => t === 'name' || t === 'first_name' || t === 'last_name');
