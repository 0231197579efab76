// D57 D61: saved views of the customers list. Anyone who may see customers keeps personal views; sharing
// one with the organization, and changing or removing a shared one, needs views:manage. A view another
// person keeps to themselves is a 404, as another organization's is. Routes hold no SQL.
import { PERSONAL_VIEWS_MAX, SHARED_VIEWS_MAX, type SavedView } from '../../../contract/views';
import { type OrgCaller, permissionDenied } from '../../auth/access';
import type { Queryable } from '../../db';
import { HttpError } from '../../http';
import { defineRoute, reply } from '../../route';
import { intText } from '../../schema';
import { deleteView, dropOthersDefaults, getView, insertView, listViews, lockViews, scopeOf, setDefault, updateView, type ViewWrite } from './repo';
import { createViewBody, defaultViewBody, updateViewBody } from './schema';

const BASE = '/v1/views/';
const idParam = { id: intText() };
/** D57: a personal view's name is its maker's own; the organization's log names only shared views. */
const target = (v: Pick<SavedView, 'id' | 'name' | 'shared'>) => ({ type: 'view', id: v.id, label: v.shared ? v.name : 'Personal view' });

const mayShare = (caller: OrgCaller) => {
  if (!caller.org.permissions.has('views:manage')) throw permissionDenied(caller.org.role, 'views:manage');
};

/** D57: a name taken in the view's scope is 409 duplicate_view_name; a full scope 409 too_many_views. */
async function checkScope(tx: Queryable, caller: OrgCaller, v: ViewWrite, except: number | null, moving: boolean) {
  const { count, taken } = await scopeOf(tx, caller.org.id, v.ownerId, v.name, except);
  if (taken)
    throw new HttpError(409, 'duplicate_view_name', `A ${v.ownerId === null ? 'shared view' : 'view of yours'} is already called ${v.name}`, {}, { field: 'name' });
  const max = v.ownerId === null ? SHARED_VIEWS_MAX : PERSONAL_VIEWS_MAX;
  if ((except === null || moving) && count >= max) {
    throw new HttpError(409, 'too_many_views', v.ownerId === null ? `An organization keeps at most ${max} shared views` : `You can keep at most ${max} views`);
  }
}

/** GET /v1/views/: the caller's own views and the shared ones, by name. */
const list = defineRoute({
  method: 'GET',
  path: BASE,
  access: 'org',
  permission: 'customers:view',
  handler: async ({ tx, caller }) => ({ results: await listViews(tx, caller.org.id, caller.userId) }),
});

const read = defineRoute({
  method: 'GET',
  path: `${BASE}:id/`,
  access: 'org',
  permission: 'customers:view',
  params: idParam,
  handler: ({ tx, caller, params }) => getView(tx, caller.org.id, caller.userId, params.id),
});

const create = defineRoute({
  method: 'POST',
  path: BASE,
  access: 'org',
  permission: 'customers:view',
  body: createViewBody,
  audit: 'view.created',
  async handler({ tx, ctx, caller, body, audit }) {
    if (body.shared) mayShare(caller);
    await lockViews(tx, caller.org.id);
    const v: ViewWrite = { name: body.name, ownerId: body.shared ? null : caller.userId, params: body.params, columns: body.columns };
    await checkScope(tx, caller, v, null, false);
    const id = await insertView(tx, caller.org.id, caller.userId, v, new Date(ctx.now()));
    const view = await getView(tx, caller.org.id, caller.userId, id);
    audit({ target: target(view), changes: view.shared ? { name: view.name, shared: true, params: view.params, columns: view.columns } : { shared: false } });
    return reply(201, view);
  },
});

/** PATCH /v1/views/{id}/: a shared view needs views:manage; unsharing makes it the caller's own. */
const update = defineRoute({
  method: 'PATCH',
  path: `${BASE}:id/`,
  access: 'org',
  permission: 'customers:view',
  params: idParam,
  body: updateViewBody,
  partialBody: true,
  async handler({ tx, ctx, caller, params, body, audit }) {
    await lockViews(tx, caller.org.id);
    const before = await getView(tx, caller.org.id, caller.userId, params.id);
    const shared = body.shared ?? before.shared;
    if (before.shared || shared) mayShare(caller);
    const v: ViewWrite = {
      name: body.name ?? before.name,
      ownerId: shared ? null : caller.userId,
      params: body.params ?? before.params,
      columns: body.columns ?? before.columns,
    };
    await checkScope(tx, caller, v, before.id, shared !== before.shared);
    const changed = (['name', 'params', 'columns'] as const).filter((k) => JSON.stringify(v[k]) !== JSON.stringify(before[k]));
    if (!changed.length && shared === before.shared) return before;
    await updateView(tx, caller.org.id, before.id, v, new Date(ctx.now()));
    if (!shared) await dropOthersDefaults(tx, caller.org.id, before.id, caller.userId);
    const after = await getView(tx, caller.org.id, caller.userId, before.id);
    const changes: Record<string, unknown> = Object.fromEntries(changed.map((k) => [k, { from: before[k], to: after[k] }]));
    if (shared !== before.shared) changes.shared = { from: before.shared, to: shared };
    audit({ action: 'view.updated', target: target(before.shared ? before : after), changes: before.shared || shared ? changes : { fields: changed } });
    return after;
  },
});

const remove = defineRoute({
  method: 'DELETE',
  path: `${BASE}:id/`,
  access: 'org',
  permission: 'customers:view',
  params: idParam,
  audit: 'view.deleted',
  async handler({ tx, caller, params, audit }) {
    await lockViews(tx, caller.org.id);
    const view = await getView(tx, caller.org.id, caller.userId, params.id);
    if (view.shared) mayShare(caller);
    await deleteView(tx, caller.org.id, view.id);
    audit({ target: target(view), changes: view.shared ? { name: view.name, params: view.params, columns: view.columns } : { shared: false } });
    return reply(204);
  },
});

/** PUT /v1/views/default/: the view the list opens with for the caller (null: the list as it comes). */
const chooseDefault = defineRoute({
  method: 'PUT',
  path: `${BASE}default/`,
  access: 'org',
  permission: 'customers:view',
  body: defaultViewBody,
  async handler({ tx, caller, body, audit }) {
    const view = body.view_id === null ? null : await getView(tx, caller.org.id, caller.userId, body.view_id);
    const before = await setDefault(tx, caller.org.id, caller.userId, view?.id ?? null);
    if (before !== (view?.id ?? null)) {
      audit({
        action: 'view.default_changed',
        target: view ? target(view) : { type: 'view', id: null, label: 'No default view' },
        changes: { view_id: { from: before, to: view?.id ?? null } },
      });
    }
    return { view_id: view?.id ?? null };
  },
});

export const viewRoutes = [list, chooseDefault, read, create, update, remove];
