// D30: an audit entry in plain words ('Olivia changed Jane Doe’s phone from … to …'), as parts: text,
// and links to what the entry is about (the customer, or a note's customer via changes.customer_id;
// a member or invitation → /team). Pure, so every action's wording is tested without rendering.
import type { AuditEntryView } from '../../../contract/customers';

/** Values longer than this are cut (a note's body, a long address) so an entry stays one sentence. */
export const VALUE_MAX_CHARS = 80;
export const EMPTY_VALUE = '(empty)';
/** Shown when the entry has no actor (written by the system). */
export const SOMEONE = 'Someone';

export interface LinkPart {
  text: string;
  to: string;
}
export type Part = string | LinkPart;

/** D30 actions, with a short name for the action filter, in the order the filter lists them. */
export const ACTIONS: readonly { action: string; label: string }[] = [
  { action: 'customer.created', label: 'Customer added' },
  { action: 'customer.updated', label: 'Customer changed' },
  { action: 'customer.deleted', label: 'Customer deleted' },
  { action: 'customer.restored', label: 'Customer restored' },
  { action: 'customers.imported', label: 'Customers imported' },
  { action: 'note.added', label: 'Note added' },
  { action: 'note.edited', label: 'Note edited' },
  { action: 'note.deleted', label: 'Note deleted' },
  { action: 'member.role_changed', label: 'Role changed' },
  { action: 'member.removed', label: 'Member removed' },
  { action: 'invitation.created', label: 'Invitation created' },
  { action: 'invitation.revoked', label: 'Invitation revoked' },
  { action: 'invitation.renewed', label: 'Invitation renewed' },
  { action: 'invitation.accepted', label: 'Invitation accepted' },
  { action: 'permissions.changed', label: 'Permissions changed' },
  { action: 'permissions.reset', label: 'Permissions reset' },
];

/** D30 target types, for the target filter. */
export const TARGET_TYPES: readonly { type: string; label: string }[] = [
  { type: 'customer', label: 'Customers' },
  { type: 'note', label: 'Notes' },
  { type: 'import', label: 'Imports' },
  { type: 'member', label: 'Members' },
  { type: 'invitation', label: 'Invitations' },
  { type: 'permissions', label: 'Permissions' },
];

/** D22 field names as a sentence says them. */
const FIELD_WORDS: Record<string, string> = { address_line: 'address', postal_code: 'postal code' };
const TEAM_PATH = '/team';

/** Which links the reader may follow (D9: no link to a page they cannot open). */
export interface LinkRights {
  customers: boolean;
  team: boolean;
}
const ALL: LinkRights = { customers: true, team: true };

export function valueText(v: unknown): string {
  if (v === null || v === undefined || v === '') return EMPTY_VALUE;
  if (Array.isArray(v)) return v.length ? v.map(valueText).join(', ') : EMPTY_VALUE;
  const s = (typeof v === 'string' ? v : JSON.stringify(v)).replace(/\s+/g, ' ').trim();
  return s.length > VALUE_MAX_CHARS ? `${s.slice(0, VALUE_MAX_CHARS - 1)}…` : s;
}

/** 'a, b and c'. */
function list(items: Part[][]): Part[] {
  return items.flatMap((item, i) => (i === 0 ? item : [i === items.length - 1 ? ' and ' : ', ', ...item]));
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const id = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);
const isChange = (v: unknown): v is { from: unknown; to: unknown } => typeof v === 'object' && v !== null && 'from' in v && 'to' in v;

/** permissions.changed / .reset: per role, '+added' and '−removed' (D29 audit changes). */
function roleChanges(changes: Record<string, unknown>): string {
  return Object.entries(changes)
    .flatMap(([role, c]) => {
      const { added = [], removed = [] } = (c ?? {}) as { added?: unknown[]; removed?: unknown[] };
      const marks = [...added.map((p) => `+${String(p)}`), ...removed.map((p) => `−${String(p)}`)];
      return marks.length ? [`the ${role} role: ${marks.join(', ')}`] : [];
    })
    .join('; ');
}

/** The entry as a sentence of parts; `rights` decides which names are links. */
export function describe(e: AuditEntryView, rights: LinkRights = ALL): Part[] {
  const who = e.actor?.name || SOMEONE;
  const c = e.changes ?? {};
  const label = e.target.label;
  const customerId = e.target.type === 'note' ? id(c.customer_id) : e.target.type === 'customer' ? e.target.id : null;
  const customer: Part = customerId !== null && rights.customers ? { text: label, to: `/customers/${customerId}` } : label;
  const member: Part = rights.team ? { text: label, to: TEAM_PATH } : label;
  const email = str(c.email) || label;

  switch (e.action) {
    case 'customer.created':
      return [who, ' added the customer ', customer];
    case 'customer.updated': {
      const fields = Object.entries(c).filter(([, v]) => isChange(v)) as [string, { from: unknown; to: unknown }][];
      if (!fields.length) return [who, ' changed ', customer];
      // A status as the app shows it ('active' → 'Active'); not imported from ui/audit-words, which would split its shared chunk.
      const shown = (f: string, x: unknown) => (f === 'status' && typeof x === 'string' ? x.charAt(0).toUpperCase() + x.slice(1) : valueText(x));
      const words = fields.map(([f, v]): Part[] => [`${FIELD_WORDS[f] ?? f.replace(/_/g, ' ')} from ${shown(f, v.from)} to ${shown(f, v.to)}`]);
      return [who, ' changed ', customer, '’s ', ...list(words)];
    }
    case 'customer.deleted':
      return [who, ' deleted the customer ', customer];
    case 'customer.restored':
      return [who, ' restored the customer ', customer];
    case 'customers.imported':
      return [who, ' imported customers: ', label];
    case 'note.added':
      return [who, ' added a note to ', customer, `: “${valueText(c.body)}”`];
    case 'note.edited': {
      const body = isChange(c.body) ? `: “${valueText(c.body.to)}”` : '';
      return [who, ' edited a note on ', customer, body];
    }
    case 'note.deleted':
      return [who, ' deleted a note on ', customer];
    case 'member.role_changed': {
      const role = isChange(c.role) ? ` from ${valueText(c.role.from)} to ${valueText(c.role.to)}` : '';
      return [who, ' changed ', member, `’s role${role}`];
    }
    case 'member.removed':
      return [who, ' removed ', member, c.role ? ` (${valueText(c.role)})` : '', ' from the team'];
    case 'invitation.created':
      return [who, ' invited ', email, ` as ${valueText(c.role)}`];
    case 'invitation.revoked':
      return [who, ' revoked the invitation for ', email];
    case 'invitation.renewed':
      return [who, ' renewed the invitation for ', email];
    case 'invitation.accepted':
      return [who, ' joined the team as ', valueText(c.role), ' (invited as ', str(c.email) || label, ')'];
    case 'permissions.changed': {
      const what = roleChanges(c);
      return [who, ' changed ', what || 'the permissions'];
    }
    case 'permissions.reset': {
      const what = roleChanges(c);
      return [who, ' reset the permissions to the defaults', what && ` (${what})`];
    }
    default:
      return [who, ` ${e.action.replace(/[._]/g, ' ')} `, label];
  }
}

/** The sentence as plain text (for tests and for an accessible summary). */
export const describeText = (e: AuditEntryView, rights?: LinkRights): string => describe(e, rights).map((p) => (typeof p === 'string' ? p : p.text)).join('');
