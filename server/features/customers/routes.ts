// D22–D27: the customers API. Routes hold no SQL (repo.ts, notes-repo.ts do); each change is one
// transaction with its audit entry (the router writes the entries the handler records).
import { assignableMembers, assignedFilter, assigneeOf, scopeOf } from '../../customer-scope';
import type { CustomValues } from '../../../contract/custom-fields';
import { ASSIGNEES_PATH } from '../../../contract/assignment';
import type { Customer, CustomerInput, CustomerServiceInput } from '../../../contract/customers';
import { permissionDenied } from '../../auth/access';
import { fieldError } from '../../http';
import { defineRoute, jsonText, reply } from '../../route';
import { intText } from '../../schema';
import { listCustomersJson } from '../../customer-list';
import { customListOf, customSortedJson } from '../../custom-list';
import { listDeleted } from './deleted-repo';
import { createCustomer, deleteCustomer, getCustomer, restoreCustomer, updateCustomer } from './repo';
import { findDuplicates, suggestTags } from './search';
import { createBody, duplicatesQuery, leadSourcesQuery, listQuery, tagsQuery, updateBody } from './schema';
import { csvRoutes } from './csv-routes';
import { noteRoutes } from './notes-routes';
import { contactRoutes } from './contacts-routes';
import { suggestLeadSources } from './lead-sources';
import { locationRoutes } from './locations-routes';
import { mergeRoutes } from './merge-routes';
import { bulkRoutes } from './bulk-routes';
import { lockFields } from '../../custom-fields';
import { assertCustomerValuesFree, customWrite } from '../../custom-values';

const idParam = { id: intText() };
const _noteParams = { id: intText(), note_id: intText() };
const target = (c: Pick<Customer, 'id' | 'name'>) => ({ type: 'customer', id: c.id, label: c.name });

/** The non-empty fields of a new record, as its audit entry's changes. */
const filled = (c: CustomerInput & CustomerServiceInput) =>
  Object.fromEntries(Object.entries(c).filter(([, v]) => v !== null && v !== false && !(Array.isArray(v) && v.length === 0)));

/** D56: a new record's custom values as its audit entry's changes, `custom.<key>` each. */
const customFilled = (values: CustomValues) => Object.fromEntries(Object.entries(values).map(([k, v]) => [`custom.${k}`, v]));

/** GET /v1/customers/: D26 one page of the organization's live customers and the total; D25 deleted=true. */
const list = defineRoute({
  method: 'GET',
  path: '/v1/customers/',
  access: 'org',
  permission: 'customers:view',
  query: listQuery,
  handler: async ({ tx, ctx, caller, query: q }) => {
    if (q.deleted === 'true') {
      // D25: only who may delete sees what was deleted (and may restore it).
      if (!caller.org.permissions.has('customers:delete')) throw permissionDenied(caller.org.role, 'customers:delete');
      return listDeleted(ctx.db, scopeOf(caller), q.page, q.page_size, new Date(ctx.now()));
    }
    // D26: the answer's JSON is built by the database and sent as it is.
    const filter = {
      ...{ q: q.q, status: q.status, tag: q.tag, type: q.type, doNotService: q.do_not_service === 'true', createdSince: q.created_since },
      assigned: assignedFilter(q.assigned, caller), // D59
    };
    const { custom, customSort, sort } = await customListOf(tx, caller.org.id, q); // D56
    const f = { ...filter, custom, sort, page: q.page, pageSize: q.page_size, countBound: ctx.config.listCountBound };
    return jsonText(customSort ? await customSortedJson(tx, scopeOf(caller), { ...f, customSort }) : await listCustomersJson(tx, scopeOf(caller), f));
  },
});

/** POST /v1/customers/: D22 a new customer; D23 409 duplicate_email. */
const create = defineRoute({
  method: 'POST',
  path: '/v1/customers/',
  access: 'org',
  permission: 'customers:create',
  body: createBody,
  audit: 'customer.created',
  async handler({ tx, ctx, caller, body: { custom, assigned_to, ...body }, audit }) {
    await lockFields(tx, caller.org.id, 'use'); // D56
    const values = await customWrite(tx, caller.org.id, 'customer', custom, null, null);
    const assignedTo = (await assigneeOf(tx, caller, assigned_to ?? undefined, true)) ?? null; // D59
    const customer = await createCustomer(tx, caller.org.id, caller.userId, body, new Date(ctx.now()), values.set, assignedTo);
    const assigned = customer.assigned_to ? { assigned_to: customer.assigned_to } : {};
    audit({ target: target(customer), changes: { ...filled(body), ...customFilled(values.set), ...assigned } });
    return reply(201, customer);
  },
});

const read = defineRoute({
  method: 'GET',
  path: '/v1/customers/:id/',
  access: 'org',
  permission: 'customers:view',
  params: idParam,
  handler: ({ tx, caller, params }) => getCustomer(tx, caller.org.id, params.id),
});

/**
 * PATCH /v1/customers/{id}/: D31 with the version it was based on; 409 conflict with the current record.
 * A save that changes nothing writes nothing (no new version, no audit entry), so `audit` is not required.
 */
const update = defineRoute({
  method: 'PATCH',
  path: '/v1/customers/:id/',
  access: 'org',
  permission: 'customers:update',
  params: idParam,
  body: updateBody,
  partialBody: true,
  async handler({ tx, ctx, caller, params, body, audit }) {
    const { version, custom, assigned_to, ...patch } = body;
    if (version === undefined) throw updateVersionMissing();
    // D56: the definitions' lock before the customer's own, as a definition's change takes them.
    if (custom) await lockFields(tx, caller.org.id, 'use');
    const customFor = custom ? (before: Customer) => customWrite(tx, caller.org.id, 'customer', custom, before.custom, before.id) : undefined;
    // D59: checked once the customer is found (a missing one is a 404 before anything about the body).
    const assignee = 'assigned_to' in body ? () => assigneeOf(tx, caller, assigned_to ?? null, false) : undefined;
    const { after, changes } = await updateCustomer(tx, caller.org.id, caller.userId, params.id, patch, version, new Date(ctx.now()), customFor, assignee);
    if (Object.keys(changes).length > 0) audit({ action: 'customer.updated', target: target(after), changes });
    return after;
  },
});

const updateVersionMissing = () => fieldError('version', 'is required (D31: the version the change is based on)', 'missing_field');

/** DELETE /v1/customers/{id}/: D25 soft delete. */
const remove = defineRoute({
  method: 'DELETE',
  path: '/v1/customers/:id/',
  access: 'org',
  permission: 'customers:delete',
  params: idParam,
  audit: 'customer.deleted',
  async handler({ tx, ctx, caller, params, audit }) {
    const customer = await deleteCustomer(tx, caller.org.id, caller.userId, params.id, new Date(ctx.now()));
    audit({ target: target(customer) });
    return reply(204);
  },
});

/** POST /v1/customers/{id}/restore/: D25 within 30 days; 409 when its email (or D56 a unique value) now belongs to another. */
const restore = defineRoute({
  method: 'POST',
  path: '/v1/customers/:id/restore/',
  access: 'org',
  permission: 'customers:delete',
  params: idParam,
  audit: 'customer.restored',
  async handler({ tx, ctx, caller, params, audit }) {
    await lockFields(tx, caller.org.id, 'use'); // D56: its unique values, checked as a save's are
    const customer = await restoreCustomer(tx, caller.org.id, caller.userId, params.id, new Date(ctx.now()));
    await assertCustomerValuesFree(tx, caller.org.id, customer);
    audit({ target: target(customer) });
    return customer;
  },
});

/** GET /v1/customers/duplicates/: D23 the warning while typing. */
const duplicates = defineRoute({
  method: 'GET',
  path: '/v1/customers/duplicates/',
  access: 'org',
  permission: 'customers:view',
  query: duplicatesQuery,
  handler: async ({ tx, caller, query }) => ({ results: await findDuplicates(tx, scopeOf(caller), query.email, query.phone, query.exclude, query.name) }),
});

/** GET /v1/customers/tags/?q=: D45 the organization's tags as one types in the tag filter, most used first. */
const tags = defineRoute({
  method: 'GET',
  path: '/v1/customers/tags/',
  access: 'org',
  permission: 'customers:view',
  query: tagsQuery,
  handler: async ({ tx, caller, query }) => ({ results: await suggestTags(tx, scopeOf(caller), query.q) }),
});

/** GET /v1/customers/lead-sources/?q=: D48 the organization's earlier sources as one types, most used first. */
const leadSources = defineRoute({
  method: 'GET',
  path: '/v1/customers/lead-sources/',
  access: 'org',
  permission: 'customers:view',
  query: leadSourcesQuery,
  handler: async ({ tx, caller, query }) => ({ results: await suggestLeadSources(tx, scopeOf(caller), query.q) }),
});

/** GET /v1/customers/assignees/: D59 the members a customer may be assigned to (the form's and the list's choices). */
const assignees = defineRoute({
  method: 'GET',
  path: ASSIGNEES_PATH,
  access: 'org',
  permission: 'customers:view',
  handler: async ({ tx, caller }) => ({ results: await assignableMembers(tx, caller) }),
});

export const customerRoutes = [
  ...csvRoutes,
  ...bulkRoutes,
  list,
  create,
  read,
  update,
  remove,
  restore,
  duplicates,
  tags,
  leadSources,
  assignees,
  ...noteRoutes,
  ...locationRoutes,
  ...contactRoutes,
  ...mergeRoutes,
];
