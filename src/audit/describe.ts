// D24 D30 D32: an audit entry in plain words, for each screen that shows one: the activity log says
// every value ('Olivia changed Jane Doe’s phone from … to …'), the dashboard's latest activity names
// what changed ('Sam changed phone of Jane Doe'), a customer's timeline speaks of "this customer" and
// says each change before → after. As parts (text, links, values), so every wording is tested without
// rendering; AuditWords renders them. Links only where the reader may go (D9).
import type { AuditEntryView } from '../../contract/audit';
import { customerHref, PAGES } from '../router/paths';
import { actorName, change, EMPTY_VALUE, fieldChanges, fieldWord, shortText, shortValue, valueText, wordList, type FieldChange, bulkWords, viewWords } from './words';
import { ASSIGNED_FIELD, roleChanges, UNASSIGNED } from './words';

export interface LinkPart {
  text: string;
  to: string;
}
/** A value before or after a change, on the timeline (styled apart). */
export interface ValuePart {
  text: string;
  value: 'from' | 'to';
}
export type Part = string | LinkPart | ValuePart;

/** The activity log, the dashboard's latest activity, a customer's timeline. */
export type AuditView = 'log' | 'recent' | 'timeline';

/** Which pages the reader may open (D9). */
export interface LinkRights {
  customers: boolean;
  team: boolean;
  permissions: boolean;
}
const ALL: LinkRights = { customers: true, team: true, permissions: true };

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const id = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);
const link = (text: string, to: string, may: boolean): Part => (may ? { text, to } : text);

/** D24: one change on the timeline: "changed phone from A to B", "set email to B", "cleared company (was A)". */
export function changeWords({ field, from, to }: FieldChange): Part[] {
  // D59: 'changed Assigned to: Olive → Tess' (nobody is 'Unassigned')
  if (field === ASSIGNED_FIELD) return ['changed Assigned to: ', { text: from || UNASSIGNED, value: 'from' }, ' → ', { text: to || UNASSIGNED, value: 'to' }];
  if (!from) return ['set ', fieldWord(field), ' to ', { text: to, value: 'to' }];
  if (!to) return ['cleared ', fieldWord(field), ' (was ', { text: from, value: 'from' }, ')'];
  return ['changed ', fieldWord(field), ' from ', { text: from, value: 'from' }, ' to ', { text: to, value: 'to' }];
}

/** An action this app does not know (a newer server's): its name in words ("order.shipped" → "order shipped"). */
export const unknownWords = (e: AuditEntryView): Part[] => [actorName(e), ` ${String(e.action).replace(/[._]/g, ' ')} `, e.target.label];

/** D46 D47: the location or contact an entry is about, named as its changes name it: 'location “Home”'. */
function part(e: AuditEntryView): string {
  const kind = e.action.startsWith('location.') ? 'location' : 'contact';
  const name = shortValue(e.changes?.[kind]);
  return name === EMPTY_VALUE ? kind : `${kind} “${name}”`;
}

/** D49: the other customer a merge entry names (`merged_customer` on the survivor's, `survivor` on the merged one's). */
function mergeParts(e: AuditEntryView, view: AuditView, may: boolean): { merged: Part[]; survivor: Part[] } {
  const c = e.changes ?? {};
  const other = (v: unknown) => (v ?? {}) as { id?: unknown; name?: unknown };
  const named = (v: unknown): Part => {
    const o = other(v);
    const oid = id(o.id);
    return link(str(o.name) || 'a customer', oid === null ? PAGES.customers : customerHref(oid), may && oid !== null);
  };
  const self: Part[] = view === 'timeline' ? ['this customer'] : [link(e.target.label, e.target.id ? customerHref(e.target.id) : PAGES.customers, may && !!e.target.id)];
  return c.merged_customer ? { merged: [named(c.merged_customer)], survivor: self } : { merged: self, survivor: [named(c.survivor)] };
}

/** The entry as a sentence of parts, as `view` says it; `rights` decides which names are links; `self`: the timeline's customer. */
export function describe(e: AuditEntryView, view: AuditView = 'log', rights: LinkRights = ALL, self?: number): Part[] {
  const who = actorName(e);
  const c = e.changes ?? {};
  const { label } = e.target;
  const log = view === 'log';
  const customerId = e.target.type === 'note' ? id(c.customer_id) : e.target.type === 'customer' ? e.target.id : null;
  // D25: a deleted customer's page is a 404, so no link.
  const name = link(label, customerId === null ? PAGES.customers : customerHref(customerId), rights.customers && customerId !== null && e.action !== 'customer.deleted');
  // D49: on a survivor's timeline, the history of a customer merged into it names that customer.
  const mergedIn = view === 'timeline' && self !== undefined && customerId !== null && customerId !== self;
  const customer: Part[] = view === 'timeline' ? [mergedIn ? label : 'this customer'] : [name];
  const before = mergedIn ? ` (${label}, before the merge)` : '';
  const theCustomer: Part[] = log ? ['the customer ', name] : customer;
  const member = link(label, PAGES.team, rights.team);
  const perms = link('the permissions', PAGES.permissions, rights.permissions);
  const email = str(c.email) || label;
  const role = c.role ? ` as ${shortValue(c.role)}` : '';
  const roleChange = change(c.role);
  const fromTo = roleChange ? ` from ${shortValue(roleChange.from)} to ${shortValue(roleChange.to)}` : '';

  switch (e.action) {
    case 'customer.created':
      return [who, ' added ', ...theCustomer, mergedIn ? ', later merged into this customer' : ''];
    case 'customer.updated': {
      const fields = fieldChanges(c);
      const [only] = fields;
      if (!only) return [who, ' changed ', ...customer];
      if (view === 'timeline') return fields.length === 1 ? [who, ' ', ...changeWords(only), before] : [who, ` made ${fields.length} changes${before}:`];
      if (view === 'recent')
        return [
          who,
          ' changed ',
          ...wordList(
            fields.map((f) => [fieldWord(f.field)]),
            ' and ',
            ', ',
          ),
          ' of ',
          name,
        ];
      const words = fields.map((f) => [
        f.field === ASSIGNED_FIELD
          ? `assignee (Assigned to: ${f.from || UNASSIGNED} → ${f.to || UNASSIGNED})` // D59
          : `${fieldWord(f.field)} from ${shortText(f.from)} to ${shortText(f.to)}`,
      ]);
      return [who, ' changed ', name, '’s ', ...wordList<Part>(words, ' and ', ', ')];
    }
    case 'customer.deleted':
      return [who, ' deleted ', ...theCustomer];
    case 'customer.restored':
      return [who, ' restored ', ...theCustomer];
    case 'customer.merged': {
      const m = mergeParts(e, view, rights.customers);
      return [who, ' merged ', ...m.merged, ' into ', ...m.survivor];
    }
    case 'customer.merge_undone': {
      const m = mergeParts(e, view, rights.customers);
      return [who, ' undid the merge of ', ...m.merged, ' into ', ...m.survivor];
    }
    case 'customers.imported':
      if (view === 'timeline') return [who, ' imported this customer from a CSV file'];
      return [who, ' imported ', link('customers', PAGES.customers, rights.customers), log ? ': ' : ' from a CSV file: ', label];
    case 'note.added':
      return [who, ' added a note to ', ...customer, log ? `: “${shortValue(c.body)}”` : ''];
    case 'note.edited': {
      const body = change(c.body);
      return [who, ' edited a note on ', ...customer, log && body ? `: “${shortValue(body.to)}”` : ''];
    }
    case 'note.deleted':
      return [who, ' deleted a note on ', ...customer];
    case 'location.added':
    case 'contact.added':
      return [who, ` added the ${part(e)} to `, ...customer];
    case 'location.updated':
    case 'contact.updated': {
      // D46 D47: on the timeline as a customer's change is, naming which location or contact.
      const fields = fieldChanges(c);
      // D46: 'Make primary' is its own sentence (the server un-primaries the other location itself).
      if (fields.length === 1 && change(c.primary)?.to === true)
        return [who, ` made the ${part(e)} the primary location`, ...(view === 'timeline' ? [] : [' of ', ...customer])];
      const [only] = fields;
      if (view === 'timeline' && only && fields.length === 1) return [who, ' ', ...changeWords(only), ` (the ${part(e)})`];
      const values = fields.map((f) => `${fieldWord(f.field)} from ${shortText(f.from)} to ${shortText(f.to)}`).join(', ');
      return [who, ` changed the ${part(e)} of `, ...customer, log && values ? `: ${values}` : ''];
    }
    case 'location.removed':
    case 'contact.removed':
      return [who, ` removed the ${part(e)} from `, ...customer];
    case 'member.role_changed':
      return log ? [who, ' changed ', member, `’s role${fromTo}`] : [who, ' changed the role of ', member, fromTo];
    case 'member.removed':
      return [who, ' removed ', member, c.role ? ` (${valueText(c.role)})` : '', ' from the team'];
    case 'invitation.created':
      return [who, ' invited ', email, role];
    case 'invitation.revoked':
      return [who, ' revoked the invitation for ', email];
    case 'invitation.renewed':
      return [who, ' renewed the invitation for ', email];
    case 'invitation.accepted':
      return [who, ' joined the team', role, ` (invited as ${email})`];
    case 'permissions.changed': {
      const what = log && roleChanges(c);
      return [who, ' changed ', perms, what ? `: ${what}` : ''];
    }
    case 'permissions.reset': {
      const what = log && roleChanges(c);
      return [who, ' reset ', perms, ' to the defaults', what ? ` (${what})` : ''];
    }
    case 'account.mfa_enabled':
      return [who, ' turned on two-step sign-in'];
    case 'account.mfa_disabled':
      return [who, ' turned off two-step sign-in'];
    case 'account.mfa_reset':
      return [who, ' reset the two-step sign-in of ', member];
    case 'account.mfa_recovery_codes_renewed':
      return [who, ' made new recovery codes for two-step sign-in'];
    case 'organization.settings_updated': {
      const required = change(c.require_mfa);
      if (required) return [who, required.to ? ' required two-step sign-in for everyone' : ' stopped requiring two-step sign-in'];
      return [who, ' changed the organization settings'];
    }
    case 'organization.exported': // D67
      return [who, ' downloaded all of the organization’s data'];
    // D51–D53: the person's own account, as their organizations' logs show it.
    case 'account.updated':
      return [who, ' changed their account', log ? ` (${Object.keys(c).map(fieldWord).join(' and ')})` : ''];
    case 'account.password_changed':
      return [who, ' changed their password'];
    case 'account.session_revoked':
      return [who, typeof c.ended_sessions === 'number' ? ' signed out their other sessions' : ' signed out a session'];
    case 'account.reset_link_created':
      return [who, ' created a password reset link for ', member];
    case 'account.password_reset':
      return [who, ' set a new password with a reset link'];
    // D56: a custom field's definition, named by its label.
    case 'custom_field.created':
      return [who, ` added the custom field “${label}”`];
    case 'custom_field.updated':
      return [
        who,
        ` changed the custom field “${label}”`,
        log && fieldChanges(c).length
          ? ` (${fieldChanges(c)
              .map((f) => fieldWord(f.field))
              .join(', ')})`
          : '',
      ];
    case 'custom_field.archived':
      return [who, ` archived the custom field “${label}”`];
    case 'custom_field.restored':
      return [who, ` restored the custom field “${label}”`];
    case 'custom_field.deleted':
      return [who, ` deleted the custom field “${label}”`, typeof c.records_with_value === 'number' ? ` and its values on ${c.records_with_value} records` : ''];
    case 'custom_field.reordered':
      return [who, ' reordered the custom fields'];
    default: // D57 D58: saved views' and bulk actions' entries in words.ts
      if (e.action.startsWith('customers.bulk_')) return [who, bulkWords(e.action, c)]; // D58
      return e.action.startsWith('view.') ? [who, viewWords(e.action, label, c.shared)] : unknownWords(e);
  }
}

/** The sentence as plain text (for tests and for an accessible summary). */
export const describeText = (e: AuditEntryView, view?: AuditView, rights?: LinkRights, self?: number): string =>
  describe(e, view, rights, self)
    .map((p) => (typeof p === 'string' ? p : p.text))
    .join('');
