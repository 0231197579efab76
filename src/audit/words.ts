// D24 D30 D32: the words every screen uses for the audit log: the actions' short names, what entries are
// about, field names and values as a sentence says them. Changes are as the server records them
// (server/audit.ts): updates as field → { from, to }, other entries as plain values.
import type { AuditAction, AuditTargetType } from '../../contract/audit';
import { CUSTOMER_SCOPE_WORDS, PERMISSION_WORDS } from '../../contract/permission-words';
import type { CustomerScope, Permission } from '../../contract/permissions';
import { CUSTOMER_STATUS_LABELS, CUSTOMER_TYPE_LABELS, type CustomerStatus, type CustomerType } from '../../contract/customers';

/** Values longer than this are cut (a note's body, a long address) where an entry is one sentence. */
export const VALUE_MAX_CHARS = 80;
/** A value that is not there, where a sentence must still say something. */
export const EMPTY_VALUE = '(empty)';
/** Shown when the entry has no actor (written by the system). */
export const SOMEONE = 'Someone';

/** D30: each action's short name (the activity log's filter), in the order the filter lists them. */
const ACTION_LABELS: Readonly<Record<AuditAction, string>> = {
  'customer.created': 'Customer added',
  'customer.updated': 'Customer changed',
  'customer.deleted': 'Customer deleted',
  'customer.restored': 'Customer restored',
  'customer.merged': 'Customers merged',
  'customer.merge_undone': 'Merge undone',
  'customers.imported': 'Customers imported',
  'note.added': 'Note added',
  'note.edited': 'Note edited',
  'note.deleted': 'Note deleted',
  'location.added': 'Location added',
  'location.updated': 'Location changed',
  'location.removed': 'Location removed',
  'contact.added': 'Contact added',
  'contact.updated': 'Contact changed',
  'contact.removed': 'Contact removed',
  'member.role_changed': 'Role changed',
  'member.removed': 'Member removed',
  'invitation.created': 'Invitation created',
  'invitation.revoked': 'Invitation revoked',
  'invitation.renewed': 'Invitation renewed',
  'invitation.accepted': 'Invitation accepted',
  'permissions.changed': 'Permissions changed',
  'permissions.reset': 'Permissions reset',
  'account.mfa_enabled': 'Two-step sign-in turned on',
  'account.mfa_disabled': 'Two-step sign-in turned off',
  'account.mfa_reset': 'Two-step sign-in reset',
  'account.mfa_recovery_codes_renewed': 'Recovery codes renewed',
  'organization.settings_updated': 'Organization settings changed',
  'account.updated': 'Account changed',
  'account.password_changed': 'Password changed',
  'account.session_revoked': 'Session signed out',
  'account.reset_link_created': 'Reset link created',
  'account.password_reset': 'Password reset',
  'custom_field.created': 'Custom field added', // D56
  'custom_field.updated': 'Custom field changed',
  'custom_field.archived': 'Custom field archived',
  'custom_field.restored': 'Custom field restored',
  'custom_field.deleted': 'Custom field deleted',
  'custom_field.reordered': 'Custom fields reordered',
  'view.created': 'View saved', // D57
  'view.updated': 'View changed',
  'view.deleted': 'View removed',
  'view.default_changed': 'Default view chosen',
  'customers.bulk_changed': 'Customers changed in bulk', // D58
  'customers.bulk_deleted': 'Customers deleted in bulk',
  'customers.bulk_undone': 'Bulk change undone',
  'organization.exported': 'Everything exported', // D67
};
export const ACTIONS = (Object.keys(ACTION_LABELS) as AuditAction[]).map((action) => ({ action, label: ACTION_LABELS[action] }));

/** D30: what an entry is about, for the activity log's filter. */
const TARGET_LABELS: Readonly<Record<AuditTargetType, string>> = {
  customer: 'Customers',
  note: 'Notes',
  import: 'Imports',
  member: 'Members',
  invitation: 'Invitations',
  permissions: 'Permissions',
  organization: 'Organization settings',
  custom_field: 'Custom fields', // D56
  view: 'Saved views', // D57
  bulk_action: 'Bulk changes', // D58
};
export const TARGET_TYPES = (Object.keys(TARGET_LABELS) as AuditTargetType[]).map((type) => ({ type, label: TARGET_LABELS[type] }));

/** D22's fields as a sentence names them. */
const FIELD_WORDS: Record<string, string> = { address_line: 'address', postal_code: 'postal code', assigned_to: 'assignee' };

/** D59: an update's change of whom the customer is assigned to (from and to: { id, name } or null). */
export const ASSIGNED_FIELD = 'assigned_to';
export const UNASSIGNED = 'Unassigned';
export const fieldWord = (field: string): string => FIELD_WORDS[field] ?? field.replace(/_/g, ' ');

/**
 * A value as text: a status as the app shows it ('active' → 'Active'), lists (tags) comma-separated,
 * white space as one space; '' for nothing.
 */
export function valueText(value: unknown, field?: string): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value))
    return value
      .map((v) => valueText(v))
      .filter(Boolean)
      .join(', ');
  if (field === 'status' && typeof value === 'string') return CUSTOMER_STATUS_LABELS[value as CustomerStatus] ?? value;
  if (field === ASSIGNED_FIELD && typeof value === 'object') return valueText((value as { name?: unknown }).name); // D59: the person's name
  if (typeof value === 'boolean') return value ? 'yes' : 'no'; // D46 D48: a location's primary, the do-not-service flag
  return (typeof value === 'string' ? value : JSON.stringify(value)).replace(/\s+/g, ' ').trim();
}

/** A value's text in one sentence: cut to VALUE_MAX_CHARS, EMPTY_VALUE for nothing. */
export const shortText = (s: string): string => (!s ? EMPTY_VALUE : s.length > VALUE_MAX_CHARS ? `${s.slice(0, VALUE_MAX_CHARS - 1)}…` : s);
export const shortValue = (value: unknown, field?: string): string => shortText(valueText(value, field));

export interface FieldChange {
  field: string;
  from: string;
  to: string;
}

const isChange = (v: unknown): v is { from: unknown; to: unknown } => typeof v === 'object' && v !== null && 'from' in v && 'to' in v;

/** D56: a custom field's change (`custom.<key>`) is named by the label the server wrote with it. */
const changedField = (field: string, c: object) => (field.startsWith('custom.') && 'label' in c && typeof c.label === 'string' ? c.label : field);

/** D56: a choice's values in words as the server wrote them (its options' labels then), else the value's own text. */
const shown = (c: { from: unknown; to: unknown; shown?: unknown }, side: 'from' | 'to', field: string): string => {
  const words = typeof c.shown === 'object' && c.shown !== null ? (c.shown as Record<string, unknown>)[side] : undefined;
  return typeof words === 'string' ? words : valueText(c[side], field);
};

/** An update's changes (field → { from, to }) as text, in the order the server wrote them. */
export function fieldChanges(changes: Record<string, unknown>): FieldChange[] {
  return Object.entries(changes).flatMap(([field, c]) =>
    isChange(c) ? [{ field: changedField(field, c), from: shown(c, 'from', field), to: shown(c, 'to', field) }] : [],
  );
}

/** One change of a plain value (a role), or null. */
export const change = (v: unknown): { from: unknown; to: unknown } | null => (isChange(v) ? v : null);

/** Who did it: the actor's name as it was, or "Someone" for the system. */
export const actorName = (entry: { actor: { name: string } | null }): string => entry.actor?.name || SOMEONE;

/** "a", "a and b", "a, b and c". */
export const wordList = <T>(items: T[][], and: T, comma: T): T[] => items.flatMap((item, i) => (i === 0 ? item : [i === items.length - 1 ? and : comma, ...item]));

/** D57: a shared view by its name; a personal one ('Personal view') is its maker's own and stays unnamed. */
export function viewWords(action: AuditAction, label: string, shared: unknown): string {
  if (action === 'view.default_changed') return ' chose their default view';
  const verb = action === 'view.created' ? (shared === true ? 'shared' : 'saved') : action === 'view.updated' ? 'changed' : 'removed';
  return label === 'Personal view' ? ` ${verb} a personal view` : ` ${verb} the view “${label}”`;
}

/** D58: a bulk action's one entry: what it did to how many customers. */
export function bulkWords(action: AuditAction, c: Record<string, unknown>): string {
  const n = (k: string) => (typeof c[k] === 'number' ? (c[k] as number) : 0);
  const many = (k: string) => `${n(k)} customer${n(k) === 1 ? '' : 's'}`;
  if (action === 'customers.bulk_deleted') return ` deleted ${many('changed')}`;
  if (action === 'customers.bulk_undone')
    return ` undid a bulk change to ${many('restored')}${n('changed_since') ? ` (${many('changed_since')} changed since kept their later change)` : ''}`;
  const words: Record<string, string> = {
    add_tag: `added the tag “${String(c.tag)}” to ${many('changed')}`,
    remove_tag: `removed the tag “${String(c.tag)}” from ${many('changed')}`,
    set_status: `set ${many('changed')} to ${CUSTOMER_STATUS_LABELS[c.status as CustomerStatus] ?? String(c.status)}`,
    set_type: `set ${many('changed')} to ${CUSTOMER_TYPE_LABELS[c.type as CustomerType] ?? String(c.type)}`,
    set_do_not_service: `marked ${many('changed')} do-not-service`,
    clear_do_not_service: `cleared do-not-service on ${many('changed')}`,
    set_custom: `set ${String(c.field)} on ${many('changed')}`,
    // D59: to a member ({ id, name }), or to no one (null)
    assign:
      c.assigned_to === null
        ? `unassigned ${many('changed')}`
        : `assigned ${many('changed')}${typeof c.assigned_to === 'object' && c.assigned_to && 'name' in c.assigned_to ? ` to ${String(c.assigned_to.name)}` : ''}`,
    clear_custom: `cleared ${String(c.field)} on ${many('changed')}`,
  };
  return ` ${words[String(c.action)] ?? `changed ${many('changed')}`}`;
}

/** D30 D55: permissions.changed / .reset, per role, in the matrix's words: 'gave the member role “Export …”'. */
export function roleChanges(changes: Record<string, unknown>): string {
  const named = (ps: unknown[]) =>
    wordList(
      ps.map((p) => [`“${PERMISSION_WORDS[p as Permission] ?? String(p)}”`]),
      ' and ',
      ', ',
    ).join('');
  return Object.entries(changes)
    .flatMap(([role, c]) => {
      const { added = [], removed = [], sees } = (c ?? {}) as { added?: unknown[]; removed?: unknown[]; sees?: { to?: unknown } };
      const gave = added.length ? `gave the ${role} role ${named(added)}` : '';
      const took = removed.length ? `took ${named(removed)} from ${gave ? 'it' : `the ${role} role`}` : '';
      // D59: what the role sees of customers, in the matrix's words
      const saw = sees ? `${gave || took ? 'set it' : `set the ${role} role`} to “${CUSTOMER_SCOPE_WORDS[sees.to as CustomerScope] ?? String(sees.to)}”` : '';
      return gave || took || saw ? [[gave, took, saw].filter(Boolean).join(' and ')] : [];
    })
    .join('; ');
}
