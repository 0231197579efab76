// D49: what the merge test files share: the routes' paths, and a pair of customers with notes, locations,
// contacts and tags made through the API, ready to merge.
import { expect } from 'vitest';
import type { Customer, Note, TimelineItem } from '../../contract/customers';
import type { MergeRequest } from '../../contract/merge';
import { CUSTOMERS } from './api-common';
import { customerPath, partsOf, unique, uniqueNumber, type Actor } from './customers-common';
import type { Reply } from './helpers';

export const MERGE = `${CUSTOMERS}merge/`;
export const previewPath = (survivorId: number, mergedId: number) => `${MERGE}preview/?survivor_id=${survivorId}&merged_id=${mergedId}`;
export const undoPath = (mergeId: number | string) => `${CUSTOMERS}merges/${mergeId}/undo/`;

export const locations = partsOf<{ id: number; primary: boolean }>('locations');
export const contacts = partsOf<{ id: number }>('contacts');

export const merge = (who: Actor, survivor: number, merged: number, fields: MergeRequest['fields'] = {}): Promise<Reply> =>
  who.post(MERGE, { survivor_id: survivor, merged_id: merged, fields });

/** Merges and fails the test unless 200; the answer's merge_id. */
export async function merged(who: Actor, survivor: number, mergedId: number, fields: MergeRequest['fields'] = {}): Promise<number> {
  const r = await merge(who, survivor, mergedId, fields);
  expect(r.status, r.text).toBe(200);
  return r.body.merge_id as number;
}

export async function addNote(who: Actor, customerId: number, body: string): Promise<Note> {
  const r = await who.post(customerPath(customerId, 'notes/'), { body });
  expect(r.status, r.text).toBe(201);
  return r.body as unknown as Note;
}

/** Two duplicates of one person: the same phone, the second name with a typo; each with a note, a location, a contact and tags. */
export async function duplicatePair(who: Actor): Promise<{ survivor: Customer; other: Customer }> {
  const phone = uniqueNumber();
  const name = unique('Ann Lee ');
  const survivor = await who.create({ name, phone, city: 'Portland', tags: ['vip', 'north'], status: 'active' });
  const other = await who.create({
    name: `${name}e`,
    phone,
    company: 'Lee Rentals',
    city: 'Tigard',
    tags: ['VIP', 'landlord'],
    status: 'lead',
    type: 'commercial',
    lead_source: 'Yelp',
    do_not_service: true,
    do_not_service_reason: 'Unpaid invoice',
  });
  await addNote(who, survivor.id, 'Survivor note');
  await addNote(who, other.id, 'Other note one');
  await addNote(who, other.id, 'Other note two');
  await locations.add(who, survivor.id, { label: 'Home', city: 'Portland' });
  await locations.add(who, other.id, { label: 'Rental on Oak St', city: 'Tigard' });
  await locations.add(who, other.id, { label: 'Rental on Elm St', city: 'Salem' });
  await contacts.add(who, other.id, { name: 'Pat Manager', role: 'property manager', phone: uniqueNumber() });
  return { survivor: await read(who, survivor.id), other: await read(who, other.id) };
}

export async function read(who: Actor, id: number): Promise<Customer> {
  const r = await who.get(customerPath(id));
  expect(r.status, r.text).toBe(200);
  return r.body as unknown as Customer;
}

/** Every note of a customer, oldest first. */
export async function notesOf(who: Actor, id: number): Promise<Note[]> {
  const r = await who.get(`${customerPath(id, 'notes/')}?page_size=100`);
  expect(r.status, r.text).toBe(200);
  return (r.body.results as Note[]).reverse();
}

/** The customer's timeline's audit actions, newest first. */
export async function timelineActions(who: Actor, id: number): Promise<string[]> {
  const r = await who.get(`${customerPath(id, 'timeline/')}?page_size=100`);
  expect(r.status, r.text).toBe(200);
  return (r.body.results as TimelineItem[]).flatMap((i) => (i.kind === 'audit' ? [i.action] : []));
}
