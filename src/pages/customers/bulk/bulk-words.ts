// D58: a bulk action in words: its button, its dialog's title, the question that names the count ('Tag
// 1,204 customers “landlord”?'), and what the answer says ('3 customers changed (1 already was)').
import type { BulkResult } from '../../../../contract/bulk';
import { CUSTOMER_STATUS_LABELS, CUSTOMER_TYPE_LABELS, type CustomerStatus, type CustomerType } from '../../../../contract/customers';

/** What the actions bar offers; each opens its own dialog. */
export type BulkKind = 'add_tag' | 'remove_tag' | 'status' | 'type' | 'dns' | 'custom' | 'assign' | 'export' | 'delete';

export const KIND_LABELS: Record<BulkKind, string> = {
  add_tag: 'Add tag',
  remove_tag: 'Remove tag',
  status: 'Set status',
  type: 'Set type',
  dns: 'Do not service…',
  custom: 'Custom field…',
  assign: 'Assign to…', // D59
  export: 'Export',
  delete: 'Delete',
};

export const TITLES: Record<BulkKind, string> = {
  add_tag: 'Add a tag',
  remove_tag: 'Remove a tag',
  status: 'Set the status',
  type: 'Set the type',
  dns: 'Do not service',
  custom: 'Set or clear a custom field',
  assign: 'Assign customers',
  export: 'Export the selection',
  delete: 'Delete customers',
};

const figure = (n: number) => n.toLocaleString('en-US');
export const customers = (n: number) => `${figure(n)} customer${n === 1 ? '' : 's'}`;

/** What the dialog holds, as the question reads it. */
export interface Choice {
  tag: string;
  status: CustomerStatus | '';
  type: CustomerType | '';
  /** dns and custom: set (true) or clear (false). */
  set: boolean;
  /** custom: the field's label and the value as shown. */
  field: string;
  value: string;
  /** D59 assign: the member's name, null for Unassigned, '' until chosen. */
  assignee?: string | null;
}

/** The question naming the count; null until the dialog has what it needs. */
export function question(kind: BulkKind, n: number, c: Choice): string | null {
  const them = customers(n);
  switch (kind) {
    case 'add_tag':
      return c.tag ? `Tag ${them} “${c.tag}”?` : null;
    case 'remove_tag':
      return c.tag ? `Remove the tag “${c.tag}” from ${them}?` : null;
    case 'status':
      return c.status ? `Set ${them} to ${CUSTOMER_STATUS_LABELS[c.status]}?` : null;
    case 'type':
      return c.type ? `Set ${them} to ${CUSTOMER_TYPE_LABELS[c.type]}?` : null;
    case 'dns':
      return c.set ? `Mark ${them} do-not-service?` : `Clear do-not-service on ${them}?`;
    case 'custom':
      if (!c.field) return null;
      return c.set ? `Set ${c.field} to “${c.value}” on ${them}?` : `Clear ${c.field} on ${them}?`;
    case 'assign':
      if (c.assignee === '' || c.assignee === undefined) return null;
      return c.assignee === null ? `Unassign ${them}?` : `Assign ${them} to ${c.assignee}?`;
    case 'export':
      return `Export ${them} to a CSV file?`;
    case 'delete':
      return `Delete ${them}?`;
  }
}

/** The confirming button: the action and the count ('Tag 1,204 customers'). */
export function confirmLabel(kind: BulkKind, n: number, c: Choice): string {
  const them = customers(n);
  if (kind === 'add_tag') return `Tag ${them}`;
  if (kind === 'export') return `Export ${them}`;
  if (kind === 'delete') return `Delete ${them}`;
  if ((kind === 'dns' || kind === 'custom') && !c.set) return `Clear on ${them}`;
  if (kind === 'remove_tag') return `Remove from ${them}`;
  if (kind === 'assign') return c.assignee === null ? `Unassign ${them}` : `Assign ${them}`;
  return `Change ${them}`;
}

/** '3 customers changed (1 already was)'; a delete's '3 customers deleted'. */
export function resultWords(r: BulkResult): string {
  if (r.action === 'delete') return `${customers(r.changed)} deleted`;
  const already = r.unchanged ? ` (${figure(r.unchanged)} already ${r.unchanged === 1 ? 'was' : 'were'})` : '';
  return `${r.changed ? customers(r.changed) : 'No customers'} changed${already}`;
}

/** D58 409 selection_changed: the count the selection holds now; `kept`: the picked rows left are the selection now. */
export const changedWords = (n: number, all: boolean, kept = false): string =>
  all
    ? `The matching customers changed: now ${figure(n)}.`
    : kept
      ? `Some of the selected customers are gone: ${figure(n)} ${n === 1 ? 'remains' : 'remain'}, still selected. Go on with ${n === 1 ? 'it' : 'them'}, or cancel.`
      : `Some of the selected customers are gone: ${figure(n)} ${n === 1 ? 'remains' : 'remain'}. Clear the selection and choose again.`;
