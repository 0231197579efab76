// D56 D61: an organization's custom fields. Anyone who may see customers reads the definitions; changing
// them needs fields:manage. Routes hold no SQL; each change is one transaction with its audit entry.
import type { CustomField } from '../../../contract/custom-fields';
import { defineRoute, reply } from '../../route';
import { intText } from '../../schema';
import { archiveField, changeField, createField, fieldWithCount, removeField, reorder } from './definitions';
import { listFields } from './repo';
import { createFieldBody, orderBody, updateFieldBody } from './schema';

const BASE = '/v1/custom-fields/';
const idParam = { id: intText() };
const target = (f: Pick<CustomField, 'id' | 'label'>) => ({ type: 'custom_field', id: f.id, label: f.label });

/** GET /v1/custom-fields/: every field of both kinds in order, archived ones with `archived: true`. */
const list = defineRoute({
  method: 'GET',
  path: BASE,
  access: 'org',
  permission: 'customers:view',
  handler: async ({ tx, caller }) => ({ results: await listFields(tx, caller.org.id) }),
});

/** GET /v1/custom-fields/{id}/: one field and how many records hold a value (deleting's confirmation). */
const read = defineRoute({
  method: 'GET',
  path: `${BASE}:id/`,
  access: 'org',
  permission: 'customers:view',
  params: idParam,
  handler: ({ tx, caller, params }) => fieldWithCount(tx, caller.org.id, params.id),
});

const create = defineRoute({
  method: 'POST',
  path: BASE,
  access: 'org',
  permission: 'fields:manage',
  body: createFieldBody,
  audit: 'custom_field.created',
  async handler({ tx, ctx, caller, body, audit }) {
    const field = await createField(tx, caller.org.id, body, new Date(ctx.now()));
    const { id: _id, created_at: _at, archived: _a, archived_at: _aa, ...recorded } = field;
    audit({ target: target(field), changes: recorded });
    return reply(201, field);
  },
});

/** PATCH /v1/custom-fields/{id}/: a change that changes nothing writes nothing (no audit entry). */
const update = defineRoute({
  method: 'PATCH',
  path: `${BASE}:id/`,
  access: 'org',
  permission: 'fields:manage',
  params: idParam,
  body: updateFieldBody,
  partialBody: true,
  async handler({ tx, caller, params, body, audit }) {
    const { after, changes } = await changeField(tx, caller.org.id, params.id, body);
    if (Object.keys(changes).length) audit({ action: 'custom_field.updated', target: target(after), changes });
    return after;
  },
});

const archive = defineRoute({
  method: 'POST',
  path: `${BASE}:id/archive/`,
  access: 'org',
  permission: 'fields:manage',
  params: idParam,
  audit: 'custom_field.archived',
  async handler({ tx, ctx, caller, params, audit }) {
    const field = await archiveField(tx, caller.org.id, params.id, new Date(ctx.now()));
    audit({ target: target(field), changes: { key: field.key } });
    return field;
  },
});

const restore = defineRoute({
  method: 'POST',
  path: `${BASE}:id/restore/`,
  access: 'org',
  permission: 'fields:manage',
  params: idParam,
  audit: 'custom_field.restored',
  async handler({ tx, caller, params, audit }) {
    const field = await archiveField(tx, caller.org.id, params.id, null);
    audit({ target: target(field), changes: { key: field.key } });
    return field;
  },
});

/** DELETE /v1/custom-fields/{id}/: D56 archived first; the answer says how many records lost a value. */
const remove = defineRoute({
  method: 'DELETE',
  path: `${BASE}:id/`,
  access: 'org',
  permission: 'fields:manage',
  params: idParam,
  audit: 'custom_field.deleted',
  async handler({ tx, caller, params, audit }) {
    const { field, records } = await removeField(tx, caller.org.id, params.id);
    audit({ target: target(field), changes: { key: field.key, type: field.type, records_with_value: records } });
    return { id: field.id, label: field.label, records_with_value: records };
  },
});

/** PUT /v1/custom-fields/order/: the fields of one kind in a new order. */
const order = defineRoute({
  method: 'PUT',
  path: `${BASE}order/`,
  access: 'org',
  permission: 'fields:manage',
  body: orderBody,
  audit: 'custom_field.reordered',
  async handler({ tx, caller, body, audit }) {
    const fields = await reorder(tx, caller.org.id, body.record_kind, body.ids);
    audit({ target: { type: 'custom_field', id: null, label: body.record_kind }, changes: { order: fields.map((f) => f.label) } });
    return { results: fields };
  },
});

export const customFieldRoutes = [list, read, create, update, archive, restore, remove, order];
