// D46 D47: the four routes of a customer's locations or contacts, made alike. Routes hold no SQL; reading
// needs customers:view, changes customers:update. Each change is one transaction with its audit entry,
// written about the customer (target type 'customer') so that it shows in the customer's timeline (D24);
// its changes name the location or contact (`location_id`, `location`: its name in words).
import type { AuditAction } from '../../../contract/audit';
import type { Customer } from '../../../contract/customers';
import type { Queryable } from '../../db';
import { defineRoute, reply } from '../../route';
import { intText, type Shape } from '../../schema';
import { lockFields } from '../../custom-fields';
import { getCustomer, type Changes } from './repo';

interface Part {
  id: number;
  created_at: string;
  updated_at: string;
}

export interface PartRoutes<T extends Part, I> {
  /** 'locations' or 'contacts': the path segment, and `${noun}_id` its id's param. */
  plural: 'locations' | 'contacts';
  noun: 'location' | 'contact';
  body: Shape;
  patch: Shape;
  actions: { added: AuditAction; updated: AuditAction; removed: AuditAction };
  list(tx: Queryable, orgId: number, customerId: number): Promise<T[]>;
  add(tx: Queryable, orgId: number, customerId: number, input: I, now: Date): Promise<T>;
  update(tx: Queryable, orgId: number, customerId: number, id: number, patch: Partial<I>, now: Date): Promise<{ after: T; changes: Changes }>;
  remove(tx: Queryable, orgId: number, customerId: number, id: number, now: Date): Promise<T>;
  /** The part in a sentence (a location's label or address, a contact's name). */
  name(part: T): string;
  /** D56: the part has custom values: a write takes the definitions' lock before the customer's (as a definition's change does). */
  custom?: boolean;
}

const about = (c: Pick<Customer, 'id' | 'name'>) => ({ type: 'customer', id: c.id, label: c.name });

/** A part's filled fields, without its id and times, as an audit entry keeps them; D56 each custom value as `custom.<key>`. */
const filled = ({ id: _id, created_at: _c, updated_at: _u, custom = {}, ...fields }: Part & { custom?: Record<string, unknown> }) => ({
  ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== false)),
  ...Object.fromEntries(Object.entries(custom).map(([k, v]) => [`custom.${k}`, v])),
});

export function partRoutes<T extends Part, I>(o: PartRoutes<T, I>) {
  const base = `/v1/customers/:id/${o.plural}/`;
  const idParam = { id: intText() };
  const partParam = `${o.noun}_id`;
  const partParams = { id: intText(), [partParam]: intText() };
  const key = (part: T) => ({ [`${o.noun}_id`]: part.id, [o.noun]: o.name(part) });

  const list = defineRoute({
    method: 'GET',
    path: base,
    access: 'org',
    permission: 'customers:view',
    params: idParam,
    async handler({ tx, caller, params }) {
      await getCustomer(tx, caller.org.id, params.id);
      const results = await o.list(tx, caller.org.id, params.id);
      return { count: results.length, results };
    },
  });

  const add = defineRoute({
    method: 'POST',
    path: base,
    access: 'org',
    permission: 'customers:update',
    params: idParam,
    body: o.body,
    audit: o.actions.added,
    async handler({ tx, ctx, caller, params, body, audit }) {
      if (o.custom) await lockFields(tx, caller.org.id, 'use'); // D56
      const customer = await getCustomer(tx, caller.org.id, params.id, { lock: true });
      const part = await o.add(tx, caller.org.id, customer.id, body as I, new Date(ctx.now()));
      audit({ target: about(customer), changes: { ...key(part), ...filled(part) } });
      return reply(201, part);
    },
  });

  /** A save that changes nothing writes nothing (no audit entry), as a customer's does. */
  const update = defineRoute({
    method: 'PATCH',
    path: `${base}:${partParam}/`,
    access: 'org',
    permission: 'customers:update',
    params: partParams,
    body: o.patch,
    partialBody: true,
    async handler({ tx, ctx, caller, params, body, audit }) {
      if (o.custom && (body as { custom?: unknown }).custom) await lockFields(tx, caller.org.id, 'use'); // D56
      const customer = await getCustomer(tx, caller.org.id, params.id, { lock: true });
      const { after, changes } = await o.update(tx, caller.org.id, customer.id, params[partParam] as number, body as Partial<I>, new Date(ctx.now()));
      if (Object.keys(changes).length > 0) audit({ action: o.actions.updated, target: about(customer), changes: { ...key(after), ...changes } });
      return after;
    },
  });

  const remove = defineRoute({
    method: 'DELETE',
    path: `${base}:${partParam}/`,
    access: 'org',
    permission: 'customers:update',
    params: partParams,
    audit: o.actions.removed,
    async handler({ tx, ctx, caller, params, audit }) {
      const customer = await getCustomer(tx, caller.org.id, params.id, { lock: true });
      const part = await o.remove(tx, caller.org.id, customer.id, params[partParam] as number, new Date(ctx.now()));
      audit({ target: about(customer), changes: { ...key(part), ...filled(part) } });
      return reply(204);
    },
  });

  return [list, add, update, remove];
}
