// D58: bulk actions on the customers list and their one undo. Each needs the permission of the same action
// on one customer; the server acts on exactly what the person confirmed (409 selection_changed with the new
// count otherwise); one transaction, one audit entry; customers that would not change are not written.
import { assigneeOf, personRef, scopeOf, seen, type CustomerScope } from '../../customer-scope';
import { BULK_ACTIONS, BULK_MAX, BULK_UNDO_DAYS, type BulkAction, type BulkResult, type BulkUndoResult } from '../../../contract/bulk';
import { CUSTOMER_STATUSES, CUSTOMER_TYPES, DO_NOT_SERVICE_REASON_MAX_LENGTH, MAX_TAGS, TAG_MAX_LENGTH } from '../../../contract/customers';
import { fold } from '../../../contract/fold';
import { DAY_MS } from '../../../contract/time';
import { type OrgCaller, permissionDenied } from '../../auth/access';
import { listFields, lockFields } from '../../custom-fields';
import { customObject, valueCheck } from '../../custom-values';
import { where } from '../../customer-list';
import { customListOf } from '../../custom-list';
import type { Queryable } from '../../db';
import { fieldError, HttpError } from '../../http';
import { defineRoute } from '../../route';
import { int, intText, list, oneOf, optional, parseShape, queryValues, text } from '../../schema';
import { actionSql, applyBulk, atTagLimit, bulkField, countSelected, dropBulk, lockBulk, lockedBulk, newBulk, remainingIds, undoSql } from './bulk-repo';
import { undoBulk } from './bulk-undo-repo';
import { listFilters } from './schema';

/** 10,000 ids of up to ten digits, with room for the rest. */
const BULK_BODY_BYTES = 256 * 1024;

const selectionBody = {
  ids: optional(list(int({ min: 1 }), { max: BULK_MAX })),
  /** The list's query string as the person saw it (D26), e.g. `status=lead&tag=landlord`. */
  filter: optional(text({ max: 4000 })),
  count: optional(int({ min: 0, max: BULK_MAX })),
};
const changeBody = {
  ...selectionBody,
  action: oneOf(BULK_ACTIONS),
  tag: optional(text({ max: TAG_MAX_LENGTH })),
  status: optional(oneOf(CUSTOMER_STATUSES)),
  type: optional(oneOf(CUSTOMER_TYPES)),
  reason: optional(text({ max: DO_NOT_SERVICE_REASON_MAX_LENGTH, multiline: true })),
  /** set_custom: `{key: value}`; clear_custom: `{key: null}`. One field. */
  custom: customObject,
  /** D59 assign: a member's user id; absent or null unassigns. */
  assigned_to: optional(int({ min: 1 })),
};

/** D58: `ids`, for a selection of picked ids, the ones it still holds: the person may go on with those. */
const selectionChanged = (count: number, ids?: number[]) =>
  new HttpError(409, 'selection_changed', `The selection now holds ${count} customers; look again and confirm`, {}, { count, ...(ids ? { ids } : {}) });

/** The selection as SQL over the customers table ($1 the organization), and the count the person confirmed. */
async function selectionOf(tx: Queryable, scope: CustomerScope, body: { ids: number[] | null; filter: string | null; count: number | null }) {
  if ((body.ids === null) === (body.filter === null)) throw fieldError('ids', 'give either ids or filter (with count)', 'missing_field');
  if (body.ids) {
    const ids = [...new Set(body.ids)];
    if (!ids.length) throw fieldError('ids', 'must name at least one customer');
    return {
      sql: `org_id = $1${seen('', scope)} and deleted_at is null and id = any($2::int[])`,
      params: [scope.orgId, ids] as unknown[],
      confirmed: ids.length,
      picked: true,
    };
  }
  if (body.count === null) throw fieldError('count', 'is required with filter (the number of customers the person saw)', 'missing_field');
  const q = parseShape(listFilters, queryValues(new URLSearchParams(body.filter ?? ''), listFilters));
  const { custom } = await customListOf(tx, scope.orgId, q); // D56: the list's custom conditions select too
  const w = where(scope, { q: q.q, status: q.status, tag: q.tag, type: q.type, doNotService: q.do_not_service === 'true', createdSince: q.created_since, custom });
  return { sql: w.sql, params: w.params as unknown[], confirmed: body.count, picked: false };
}

/** D58: checks the selection still holds what the person confirmed, under the organization's bulk lock. */
async function confirmed(tx: Queryable, orgId: number, selection: Awaited<ReturnType<typeof selectionOf>>): Promise<number> {
  await lockBulk(tx, orgId);
  const count = await countSelected(tx, selection);
  if (count !== selection.confirmed) throw selectionChanged(count, selection.picked ? await remainingIds(tx, selection) : undefined);
  if (count > BULK_MAX) throw fieldError('filter', `matches ${count} customers; at most ${BULK_MAX} at once`, 'too_many_selected');
  return count;
}

const need = (caller: OrgCaller, permission: 'customers:update' | 'customers:delete') => {
  if (!caller.org.permissions.has(permission)) throw permissionDenied(caller.org.role, permission);
};
const bulkTarget = (id: number | null, n: number) => ({ type: 'bulk_action', id, label: `${n} customer${n === 1 ? '' : 's'}` });

/** What an action needs beside the selection, checked; a custom field's against the organization's definitions. */
async function actionValues(
  tx: Queryable,
  orgId: number,
  action: BulkAction,
  b: { tag: string | null; status: string | null; type: string | null; reason: string | null; custom: Record<string, unknown> | null },
) {
  const required = (field: string, v: unknown) => {
    if (v === null) throw fieldError(field, `is required for ${action}`, 'missing_field');
  };
  if (action === 'add_tag' || action === 'remove_tag') required('tag', b.tag);
  if (action === 'set_status') required('status', b.status);
  if (action === 'set_type') required('type', b.type);
  if (action !== 'set_custom' && action !== 'clear_custom')
    return { tag: b.tag ?? undefined, tagKey: b.tag ? fold(b.tag) : undefined, status: b.status ?? undefined, type: b.type ?? undefined, reason: b.reason };
  const entries = Object.entries(b.custom ?? {});
  if (entries.length !== 1) throw fieldError('custom', 'must name exactly one custom field');
  const [[key, raw]] = entries as [[string, unknown]];
  await lockFields(tx, orgId, 'use');
  const f = (await listFields(tx, orgId, 'customer')).find((x) => x.key === key);
  if (!f) throw fieldError(`custom.${key}`, 'is not a custom field of this organization', 'unknown_field');
  if (f.archived) throw fieldError(`custom.${key}`, 'is archived: restore the field to change its values');
  if (f.unique) throw fieldError(`custom.${key}`, 'must be unique, so it cannot be set on many customers at once');
  if (action === 'clear_custom' && f.required) throw fieldError(`custom.${key}`, 'is required, so it cannot be cleared', 'missing_field');
  const value = action === 'set_custom' ? valueCheck(f)(raw, `custom.${key}`) : undefined;
  return { key, value, label: f.label };
}

/** D34: every table a bulk action or its undo writes, its triggers' included (db-share.ts lends other callers' reads between its statements). */
const BULK_SHARE = { writes: ['customers', 'customer_counts', 'customer_tags', 'bulk_actions', 'bulk_action_items', 'audit_log'] };

/** POST /v1/customers/bulk/: one change to every selected customer (customers:update). */
const change = defineRoute({
  method: 'POST',
  path: '/v1/customers/bulk/',
  access: 'org',
  permission: 'customers:update',
  body: changeBody,
  maxBodyBytes: BULK_BODY_BYTES,
  shareReads: BULK_SHARE,
  async handler({ tx, ctx, caller, body, audit }): Promise<BulkResult> {
    const orgId = caller.org.id;
    const values = { ...(await actionValues(tx, orgId, body.action, body)), ...(await assignment(tx, caller, body)) };
    const selection = await selectionOf(tx, scopeOf(caller), body); // D59: only what the caller sees
    const count = await confirmed(tx, orgId, selection);
    if (body.action === 'add_tag') {
      const full = await atTagLimit(tx, selection, fold(body.tag!), MAX_TAGS);
      if (full) throw new HttpError(409, 'too_many_tags', `${full} of these customers already have ${MAX_TAGS} tags; remove one from them first`, {}, { count: full });
    }
    const now = new Date(ctx.now());
    const id = await newBulk(tx, orgId, body.action, caller.userId, now);
    const changed = await applyBulk(tx, id, caller.userId, now, selection, (add) => actionSql(body.action, values, add), false);
    if (!changed)
      await dropBulk(tx, orgId, id); // nothing written: nothing to undo, nothing to audit
    else
      audit({
        action: 'customers.bulk_changed',
        target: bulkTarget(id, changed),
        changes: { action: body.action, ...valueWords(values), changed, unchanged: count - changed },
      });
    return { bulk_id: changed ? id : null, action: body.action, changed, unchanged: count - changed };
  },
});

/** D59: assign's member, checked as the form's is (a scoped member assigns to themselves alone). */
async function assignment(tx: Queryable, caller: OrgCaller, body: { action: string; assigned_to: number | null }) {
  if (body.action !== 'assign') return {};
  const assignedTo = (await assigneeOf(tx, caller, body.assigned_to, false)) ?? null;
  return { assignedTo, assignee: await personRef(tx, assignedTo) };
}

/** The action's value as its audit entry names it. */
const valueWords = (v: { tag?: string; status?: string; type?: string; reason?: string | null; key?: string; value?: unknown; label?: string; assignee?: unknown }) => ({
  ...Object.fromEntries(
    Object.entries({ tag: v.tag, status: v.status, type: v.type, reason: v.reason, field: v.label, value: v.value }).filter(([, x]) => x !== undefined && x !== null),
  ),
  ...(v.assignee === undefined ? {} : { assigned_to: v.assignee }),
});

/** POST /v1/customers/bulk/delete/: D25 soft delete of every selected customer (customers:delete). */
const remove = defineRoute({
  method: 'POST',
  path: '/v1/customers/bulk/delete/',
  access: 'org',
  permission: 'customers:delete',
  body: selectionBody,
  maxBodyBytes: BULK_BODY_BYTES,
  shareReads: BULK_SHARE,
  async handler({ tx, ctx, caller, body, audit }): Promise<BulkResult> {
    const selection = await selectionOf(tx, scopeOf(caller), body); // D59: only what the caller sees
    await confirmed(tx, caller.org.id, selection);
    const now = new Date(ctx.now());
    const id = await newBulk(tx, caller.org.id, 'delete', caller.userId, now);
    const changed = await applyBulk(tx, id, caller.userId, now, selection, (add) => actionSql('delete', {}, add), true);
    audit({ action: 'customers.bulk_deleted', target: bulkTarget(id, changed), changes: { action: 'delete', changed } });
    return { bulk_id: id, action: 'delete', changed, unchanged: 0 };
  },
});

/** POST /v1/customers/bulk/{id}/undo/: D58 one exact undo within 30 days; customers changed since keep the later change. */
const undo = defineRoute({
  method: 'POST',
  path: '/v1/customers/bulk/:bulk_id/undo/',
  access: 'org',
  permission: 'customers:view',
  params: { bulk_id: intText() },
  audit: 'customers.bulk_undone',
  shareReads: BULK_SHARE,
  async handler({ tx, ctx, caller, params, audit }): Promise<BulkUndoResult> {
    const orgId = caller.org.id;
    await lockBulk(tx, orgId);
    const bulk = await lockedBulk(tx, orgId, params.bulk_id);
    // D59: a member who sees only their own customers undoes only their own actions (which touched only those).
    if (!bulk || (caller.org.seesOnlyAssigned && bulk.actor_id !== caller.userId)) throw new HttpError(404, 'not_found', 'No such bulk action');
    need(caller, bulk.action === 'delete' ? 'customers:delete' : 'customers:update');
    if (bulk.undone_at) throw new HttpError(409, 'already_undone', 'This action was undone already');
    const now = new Date(ctx.now());
    if (now.getTime() - bulk.created_at.getTime() > BULK_UNDO_DAYS * DAY_MS)
      throw new HttpError(409, 'undo_expired', `An action can be undone for ${BULK_UNDO_DAYS} days`);
    const field = bulk.action === 'set_custom' || bulk.action === 'clear_custom' ? await bulkField(tx, orgId, bulk.id) : null;
    const uniqueFields = bulk.action === 'delete' ? (await listFields(tx, orgId, 'customer')).filter((f) => f.unique && !f.archived) : [];
    const back = (add: (x: unknown) => string) => undoSql(bulk.action, field?.key ?? null, add);
    const r = await undoBulk(tx, scopeOf(caller), bulk, caller.userId, now, back, uniqueFields);
    audit({ target: bulkTarget(bulk.id, r.restored), changes: { action: bulk.action, restored: r.restored, changed_since: r.changedSince } });
    return { restored: r.restored, changed_since_count: r.changedSince, changed_since: r.names };
  },
});

export const bulkRoutes = [change, remove, undo];
