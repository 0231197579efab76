// D59 the activity log's and the timeline's words for assignment: a customer update's
// `assigned_to: {from, to}` ('Assigned to: A → B'), a permissions change's `sees: {from, to}` per role in
// the matrix's words, and the bulk assign action.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { AuditAction, AuditEntryView } from '../../contract/audit';
import { PERMISSION_WORDS } from '../../contract/permission-words';
import { AuditChanges } from '../../src/audit/AuditWords';
import { describeText } from '../../src/audit/describe';

const OLIVIA = { id: 1, name: 'Olivia' };
const TESS = { id: 4, name: 'Tess Tech' };
const JANE = { type: 'customer', id: 42, label: 'Jane Doe' };
const MATRIX = { type: 'permissions', id: null, label: 'Permissions' };
const BULK = { type: 'bulk_action', id: 9, label: '3 customers' };
let serial = 0;
const entry = (action: AuditAction, target: AuditEntryView['target'], changes: Record<string, unknown>): AuditEntryView => ({
  id: ++serial,
  at: new Date(Date.UTC(2024, 5, 1, 12, 0, serial)).toISOString(),
  actor: OLIVIA,
  action,
  target,
  changes,
});

describe('D59 activity words for assignment', () => {
  it('D59 a customer update’s assignee in the log: Assigned to: A → B, nobody is Unassigned', () => {
    expect(describeText(entry('customer.updated', JANE, { assigned_to: { from: null, to: TESS } }))).toBe(
      'Olivia changed Jane Doe’s assignee (Assigned to: Unassigned → Tess Tech)',
    );
    expect(describeText(entry('customer.updated', JANE, { assigned_to: { from: TESS, to: OLIVIA } }))).toBe(
      'Olivia changed Jane Doe’s assignee (Assigned to: Tess Tech → Olivia)',
    );
  });

  it('D59 on the timeline: one change says it in a sentence; among several, a line of its own', () => {
    expect(describeText(entry('customer.updated', JANE, { assigned_to: { from: TESS, to: null } }), 'timeline')).toBe(
      'Olivia changed Assigned to: Tess Tech → Unassigned',
    );
    render(<AuditChanges entry={entry('customer.updated', JANE, { phone: { from: '1', to: '2' }, assigned_to: { from: null, to: TESS } })} />);
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['changed phone from 1 to 2', 'changed Assigned to: Unassigned → Tess Tech']);
  });

  it('D59 the recent changes name the assignee', () => {
    expect(describeText(entry('customer.updated', JANE, { assigned_to: { from: null, to: TESS } }), 'recent')).toContain('changed assignee of');
  });

  it('D59 D61 a permissions change says what a role sees now, in the matrix’s words, beside what it was given', () => {
    expect(describeText(entry('permissions.changed', MATRIX, { member: { added: [], removed: [], sees: { from: 'all', to: 'assigned' } } }))).toBe(
      'Olivia changed the permissions: set the member role to “Sees: only customers assigned to them”',
    );
    expect(describeText(entry('permissions.changed', MATRIX, { viewer: { added: ['customers:export'], removed: [], sees: { from: 'assigned', to: 'all' } } }))).toBe(
      `Olivia changed the permissions: gave the viewer role “${PERMISSION_WORDS['customers:export']}” and set it to “Sees: all customers”`,
    );
  });

  it('D59 D58 the bulk assign action', () => {
    expect(describeText(entry('customers.bulk_changed', BULK, { action: 'assign', assigned_to: TESS, changed: 3 }))).toBe('Olivia assigned 3 customers to Tess Tech');
    expect(describeText(entry('customers.bulk_changed', BULK, { action: 'assign', assigned_to: null, changed: 1 }))).toBe('Olivia unassigned 1 customer');
  });
});
