// D49: merging two customers and undoing a merge (customers:merge). Routes hold no SQL (merge-repo.ts,
// merge-undo-repo.ts do); each change is one transaction, under the organization's lock as every change
// is (D38), with its audit entries: one about each customer, so each timeline tells the story.
import { assertSeen, scopeOf } from '../../customer-scope';
import type { Customer } from '../../../contract/customers';
import { CUSTOM_MERGE_KEY, MERGE_FIELDS, type MergeChoice, type MergePreview, type MergeRequest, proposedSurvivor } from '../../../contract/merge';
import { HttpError } from '../../http';
import { defineRoute } from '../../route';
import { describeCheck, int, intText, oneOf, optional, withDefault, type Check } from '../../schema';
import { assertMergeable, countMoves, historyOf, mergeCustomers, sameCustomer } from './merge-repo';
import { undoMerge } from './merge-undo-repo';
import { getCustomer } from './repo';

const CHOICES: readonly MergeChoice[] = ['survivor', 'merged'];
const about = (c: Pick<Customer, 'id' | 'name'>) => ({ type: 'customer', id: c.id, label: c.name });
const ref = (c: Pick<Customer, 'id' | 'name'>) => ({ id: c.id, name: c.name });

/** D49 D56: field (or `custom.<key>`) → 'survivor' | 'merged'; every unknown field and bad choice named in `errors` (400 validation_error). */
const fieldChoices: Check<MergeRequest['fields']> = describeCheck(
  (value, field) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new HttpError(
        400,
        'validation_error',
        `${field}: must be an object of field → "survivor" or "merged"`,
        {},
        { field, errors: [{ field, detail: 'must be an object' }] },
      );
    const errors: { field: string; detail: string }[] = [];
    for (const [key, choice] of Object.entries(value)) {
      if (!(MERGE_FIELDS as readonly string[]).includes(key) && !CUSTOM_MERGE_KEY.test(key))
        errors.push({ field: `${field}.${key}`, detail: 'is not a field a merge chooses' });
      else if (!(CHOICES as readonly unknown[]).includes(choice)) errors.push({ field: `${field}.${key}`, detail: 'must be "survivor" or "merged"' });
    }
    if (errors.length) throw new HttpError(400, 'validation_error', errors.map((e) => `${e.field}: ${e.detail}`).join('; '), {}, { field: errors[0]?.field, errors });
    return value as MergeRequest['fields'];
  },
  { kind: 'object', keys: MERGE_FIELDS },
);

/**
 * GET /v1/customers/merge/preview/?survivor_id=&merged_id=[&propose=true]: both customers, their history
 * and what would move. D66: with propose=true the survivor is the one with more history, whichever came first.
 */
const preview = defineRoute({
  method: 'GET',
  path: '/v1/customers/merge/preview/',
  access: 'org',
  permission: 'customers:merge',
  query: { survivor_id: intText(), merged_id: intText(), propose: optional(oneOf(['true', 'false'] as const)) },
  async handler({ tx, caller, query }): Promise<MergePreview> {
    if (query.survivor_id === query.merged_id) throw sameCustomer();
    const org = caller.org.id;
    for (const id of [query.survivor_id, query.merged_id]) await assertSeen(tx, scopeOf(caller), id); // D59: both visible
    await assertMergeable(tx, org, [query.survivor_id, query.merged_id], false);
    let [survivor, merged] = [await getCustomer(tx, org, query.survivor_id), await getCustomer(tx, org, query.merged_id)];
    let history = { survivor: await historyOf(tx, org, survivor.id), merged: await historyOf(tx, org, merged.id) };
    if (query.propose === 'true' && proposedSurvivor(survivor, history.survivor, merged, history.merged) === merged) {
      [survivor, merged] = [merged, survivor];
      history = { survivor: history.merged, merged: history.survivor };
    }
    return { survivor, merged, moves: await countMoves(tx, org, survivor, merged), history };
  },
});

/** POST /v1/customers/merge/: the survivor as GET answers it, with `merge_id` (for the undo). */
const merge = defineRoute({
  method: 'POST',
  path: '/v1/customers/merge/',
  access: 'org',
  permission: 'customers:merge',
  body: { survivor_id: int(), merged_id: int(), fields: withDefault(fieldChoices, {}) },
  audit: 'customer.merged',
  async handler({ tx, ctx, caller, body, audit }) {
    if (body.survivor_id === body.merged_id) throw sameCustomer();
    for (const id of [body.survivor_id, body.merged_id]) await assertSeen(tx, scopeOf(caller), id); // D59: both visible
    const done = await mergeCustomers(tx, caller.org.id, caller.userId, body as MergeRequest, new Date(ctx.now()));
    const { survivor, merged, mergeId, changes, moved, kept } = done;
    const keptContacts = kept.map(({ id, name, email, phone }) => ({ id, name, email, phone })); // D66
    audit({
      target: about(survivor),
      changes: { merge_id: mergeId, merged_customer: ref(merged), ...changes, ...moved, ...(kept.length ? { kept_contacts: keptContacts } : {}) },
    });
    audit({ target: about(merged), changes: { merge_id: mergeId, survivor: ref(survivor) } });
    return { ...survivor, merge_id: mergeId };
  },
});

/** POST /v1/customers/merges/{merge_id}/undo/: both customers as GET answers them. */
const undo = defineRoute({
  method: 'POST',
  path: '/v1/customers/merges/:merge_id/undo/',
  access: 'org',
  permission: 'customers:merge',
  params: { merge_id: intText() },
  audit: 'customer.merge_undone',
  async handler({ tx, ctx, caller, params, audit }) {
    const { survivor, merged, restored, kept, removedContacts } = await undoMerge(tx, scopeOf(caller), caller.userId, params.merge_id, new Date(ctx.now()));
    const removed = removedContacts.length ? { removed_contacts: removedContacts } : {}; // D66
    audit({ target: about(survivor), changes: { merge_id: params.merge_id, merged_customer: ref(merged), ...restored, ...(kept.length ? { kept } : {}), ...removed } });
    audit({ target: about(merged), changes: { merge_id: params.merge_id, survivor: ref(survivor) } });
    return { survivor, merged };
  },
});

export const mergeRoutes = [preview, merge, undo];
