// D46: a customer's service locations, SQL only (parts-repo.ts), scoped by organization and customer.
// One primary location whenever there are any: the first is primary, making another primary un-primaries
// the old one in the same transaction, and removing the primary promotes the oldest that is left.
import { MAX_LOCATIONS, type CustomerLocation, type LocationInput } from '../../../contract/customer-parts';
import type { Queryable } from '../../db';
import { fieldError } from '../../http';
import type { CustomValues } from '../../../contract/custom-fields';
import { visibleCustom } from '../../customer-list';
import { customWrite } from '../../custom-values';
import { addPart, deletePart, getPart, listParts, partChanges, writePart, type PartKind } from './parts-repo';
import type { Changes } from './repo';

export const LOCATIONS: PartKind = {
  table: 'customer_locations',
  columns: {
    label: 'label',
    address_line: 'address_line',
    city: 'city',
    region: 'region',
    postal_code: 'postal_code',
    country: 'country',
    access_notes: 'access_notes',
    primary: 'is_primary',
  },
  max: MAX_LOCATIONS,
  noun: 'location',
  order: 'is_primary desc, id',
  reads: { custom: (alias) => visibleCustom(alias, 'location') }, // D56
};

/** D56: a location's custom values written as checked (customWrite): set ones merged, cleared ones removed. */
async function writeCustom(db: Queryable, orgId: number, id: number, set: CustomValues, unset: string[]): Promise<void> {
  if (Object.keys(set).length === 0 && unset.length === 0) return;
  await db.query('update customer_locations set custom = (custom || $3::text::jsonb) - $4::text[] where org_id = $1 and id = $2', [
    orgId,
    id,
    JSON.stringify(set),
    unset,
  ] as never);
}

export const listLocations = (db: Queryable, orgId: number, customerId: number) => listParts<CustomerLocation>(db, LOCATIONS, orgId, customerId);
export const getLocation = (db: Queryable, orgId: number, customerId: number, id: number, opts: { lock?: boolean } = {}) =>
  getPart<CustomerLocation>(db, LOCATIONS, orgId, customerId, id, opts);

async function unsetPrimary(db: Queryable, orgId: number, customerId: number, now: Date): Promise<void> {
  await db.query('update customer_locations set is_primary = false, updated_at = $3 where org_id = $1 and customer_id = $2 and is_primary', [orgId, customerId, now]);
}

/** A location names at least one thing to find it by: an address field or a label. */
function assertSomewhere(l: Partial<LocationInput>): void {
  if (!l.label && !l.address_line && !l.city && !l.region && !l.postal_code && !l.country)
    throw fieldError('address_line', 'a location needs an address or at least a label', 'missing_field');
}

export async function addLocation(db: Queryable, orgId: number, customerId: number, { custom, ...input }: LocationInput, now: Date): Promise<CustomerLocation> {
  assertSomewhere(input);
  const values = await customWrite(db, orgId, 'location', custom ?? null, null, null); // D56
  const [primary] = await db.query('select 1 from customer_locations where org_id = $1 and customer_id = $2 and is_primary', [orgId, customerId]);
  const makePrimary = input.primary || !primary;
  if (makePrimary && primary) await unsetPrimary(db, orgId, customerId, now);
  const added = await addPart<CustomerLocation>(db, LOCATIONS, orgId, customerId, { ...input, primary: makePrimary }, now);
  if (Object.keys(values.set).length === 0) return added;
  await writeCustom(db, orgId, added.id, values.set, []);
  return getLocation(db, orgId, customerId, added.id);
}

export async function updateLocation(
  db: Queryable,
  orgId: number,
  customerId: number,
  id: number,
  patch: Partial<LocationInput>,
  now: Date,
): Promise<{ before: CustomerLocation; after: CustomerLocation; changes: Changes }> {
  const before = await getLocation(db, orgId, customerId, id, { lock: true });
  const { custom, ...fields } = patch;
  const values = custom ? await customWrite(db, orgId, 'location', custom, before.custom ?? {}, id) : null; // D56
  if (before.primary && fields.primary === false) throw fieldError('primary', 'make another location primary instead (a customer with locations has one primary)');
  assertSomewhere({ ...before, ...fields });
  const changes = partChanges(before, fields);
  const customChanged = values !== null && Object.keys(values.changes).length > 0;
  if (Object.keys(changes).length === 0 && !customChanged) return { before, after: before, changes };
  if (changes.primary) await unsetPrimary(db, orgId, customerId, now);
  if (customChanged) await writeCustom(db, orgId, id, values.set, values.unset);
  // writePart sets updated_at even when only custom values changed.
  const after = await writePart<CustomerLocation>(db, LOCATIONS, orgId, customerId, id, changes, now, customChanged);
  return { before, after, changes: { ...changes, ...values?.changes } };
}

export async function removeLocation(db: Queryable, orgId: number, customerId: number, id: number, now: Date): Promise<CustomerLocation> {
  const before = await getLocation(db, orgId, customerId, id, { lock: true });
  await deletePart(db, LOCATIONS, orgId, customerId, id);
  if (before.primary)
    await db.query(
      `update customer_locations set is_primary = true, updated_at = $3
        where id = (select min(id) from customer_locations where org_id = $1 and customer_id = $2)`,
      [orgId, customerId, now],
    );
  return before;
}

/** A location in a sentence: its label, else its address. */
export const locationName = (l: Pick<CustomerLocation, 'label' | 'address_line' | 'city'>) =>
  l.label ?? ([l.address_line, l.city].filter(Boolean).join(', ') || 'a location');
