// D47: a customer's other people, SQL only (parts-repo.ts), scoped by organization and customer. Phones
// are kept as typed; their digits (for search) are generated columns (migration 9).
import { MAX_CONTACTS, type ContactInput, type CustomerContact } from '../../../contract/customer-parts';
import type { Queryable } from '../../db';
import { addPart, deletePart, getPart, listParts, partChanges, writePart, type PartKind } from './parts-repo';
import type { Changes } from './repo';

export const CONTACTS: PartKind = {
  table: 'customer_contacts',
  columns: { name: 'name', role: 'role', email: 'email', phone: 'phone', note: 'note' },
  max: MAX_CONTACTS,
  noun: 'contact',
  order: 'id',
};

export const listContacts = (db: Queryable, orgId: number, customerId: number) => listParts<CustomerContact>(db, CONTACTS, orgId, customerId);
export const getContact = (db: Queryable, orgId: number, customerId: number, id: number, opts: { lock?: boolean } = {}) =>
  getPart<CustomerContact>(db, CONTACTS, orgId, customerId, id, opts);

export const addContact = (db: Queryable, orgId: number, customerId: number, input: ContactInput, now: Date) =>
  addPart<CustomerContact>(db, CONTACTS, orgId, customerId, input, now);

export async function updateContact(
  db: Queryable,
  orgId: number,
  customerId: number,
  id: number,
  patch: Partial<ContactInput>,
  now: Date,
): Promise<{ before: CustomerContact; after: CustomerContact; changes: Changes }> {
  const before = await getContact(db, orgId, customerId, id, { lock: true });
  const changes = partChanges(before, patch);
  if (Object.keys(changes).length === 0) return { before, after: before, changes };
  return { before, after: await writePart<CustomerContact>(db, CONTACTS, orgId, customerId, id, changes, now), changes };
}

export async function removeContact(db: Queryable, orgId: number, customerId: number, id: number): Promise<CustomerContact> {
  const before = await getContact(db, orgId, customerId, id, { lock: true });
  await deletePart(db, CONTACTS, orgId, customerId, id);
  return before;
}
