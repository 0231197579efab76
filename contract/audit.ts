// D30: the audit log's actions and an entry as the API answers it, shared by the server (which writes
// them) and the app (which puts them into words, src/audit/). Adding an action: one line here and its
// words in src/audit/describe.ts (a test fails until it has them).

export const AUDIT_ACTIONS = [
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'customer.restored',
  'customer.merged',
  'customer.merge_undone',
  'customers.imported',
  'note.added',
  'note.edited',
  'note.deleted',
  'location.added',
  'location.updated',
  'location.removed',
  'contact.added',
  'contact.updated',
  'contact.removed',
  'member.role_changed',
  'member.removed',
  'invitation.created',
  'invitation.revoked',
  'invitation.renewed',
  'invitation.accepted',
  'permissions.changed',
  'permissions.reset',
  'account.mfa_enabled', // D54
  'account.mfa_disabled',
  'account.mfa_reset',
  'account.mfa_recovery_codes_renewed', // D54
  'organization.settings_updated',
  'account.updated', // D51
  'account.password_changed', // D51
  'account.session_revoked', // D52
  'account.reset_link_created', // D53
  'account.password_reset', // D53
  'custom_field.created', // D56
  'custom_field.updated',
  'custom_field.archived',
  'custom_field.restored',
  'custom_field.deleted',
  'custom_field.reordered', // D56
  'view.created', // D57
  'view.updated',
  'view.deleted',
  'view.default_changed', // D57
  'customers.bulk_changed', // D58
  'customers.bulk_deleted',
  'customers.bulk_undone', // D58
  'organization.exported', // D67
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an entry is about (its `target.type`), as the activity log's filter offers them. */
export const AUDIT_TARGET_TYPES = ['customer', 'note', 'import', 'member', 'invitation', 'permissions', 'organization', 'custom_field', 'view', 'bulk_action'] as const;

export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** D30: an audit entry as the activity log, the dashboard and a customer's timeline answer it. */
export interface AuditEntryView {
  id: number;
  at: string;
  /** Who did it; id is null once that account is gone (the name is kept as it was). */
  actor: { id: number | null; name: string } | null;
  /** An entry from another version may name an action this one does not know; the app still words it. */
  action: AuditAction;
  target: { type: string; id: number | null; label: string };
  /** Updates: field → { from, to }. Creations and imports: the record's fields. */
  changes: Record<string, unknown>;
}
