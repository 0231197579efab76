// What the custom-field test files share (D56): the paths, a field made through the API, and a fresh
// organization's owner so that counts and labels are the test's own.
import { expect } from 'vitest';
import type { CustomField } from '../../contract/custom-fields';
import type { Actor } from './customers-common';

export const FIELDS = '/api/v1/custom-fields/';
export const fieldPath = (id: number, rest = '') => `${FIELDS}${id}/${rest}`;

/** POST /v1/custom-fields/; fails the test unless 201. */
export async function addField(who: Actor, body: Record<string, unknown>): Promise<CustomField> {
  const r = await who.post(FIELDS, { type: 'text', ...body });
  expect(r.status, r.text).toBe(201);
  return r.body as unknown as CustomField;
}

/** The organization's fields as GET /v1/custom-fields/ answers them. */
export async function fieldsOf(who: Actor): Promise<CustomField[]> {
  const r = await who.get(FIELDS);
  expect(r.status, r.text).toBe(200);
  return r.body.results as CustomField[];
}
