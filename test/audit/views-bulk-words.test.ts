// D57 the audit words of saved views (a shared view by its name, a personal one never named) and D58 of bulk actions.
import { expect, it } from 'vitest';
import type { AuditAction } from '../../contract/audit';
import { describeText } from '../../src/audit/describe';

const entry = (action: AuditAction, label: string, changes: Record<string, unknown> = {}) => ({
  id: 1,
  at: '2024-06-01T12:00:00.000Z',
  actor: { id: 1, name: 'Olivia' },
  action,
  target: { type: 'view', id: 3, label },
  changes,
});

it('D57 a shared view is named in the log; a personal one is not', () => {
  expect(describeText(entry('view.created', 'Commercial leads', { shared: true }))).toBe('Olivia shared the view “Commercial leads”');
  expect(describeText(entry('view.updated', 'Commercial leads'))).toBe('Olivia changed the view “Commercial leads”');
  expect(describeText(entry('view.deleted', 'Commercial leads'))).toBe('Olivia removed the view “Commercial leads”');
  expect(describeText(entry('view.created', 'Personal view', { shared: false }))).toBe('Olivia saved a personal view');
  expect(describeText(entry('view.deleted', 'Personal view', { shared: false }))).toBe('Olivia removed a personal view');
  expect(describeText(entry('view.default_changed', 'Personal view'))).toBe('Olivia chose their default view');
});

it('D58 a bulk action is one entry saying what it did to how many customers', () => {
  const bulk = (action: AuditAction, changes: Record<string, unknown>) => ({
    ...entry(action, '3 customers', changes),
    target: { type: 'bulk_action', id: 9, label: '3 customers' },
  });
  expect(describeText(bulk('customers.bulk_changed', { action: 'add_tag', tag: 'landlord', changed: 3 }))).toBe('Olivia added the tag “landlord” to 3 customers');
  expect(describeText(bulk('customers.bulk_changed', { action: 'set_status', status: 'inactive', changed: 1 }))).toBe('Olivia set 1 customer to Inactive');
  expect(describeText(bulk('customers.bulk_changed', { action: 'set_custom', field: 'Tank size', changed: 2 }))).toBe('Olivia set Tank size on 2 customers');
  expect(describeText(bulk('customers.bulk_deleted', { action: 'delete', changed: 3 }))).toBe('Olivia deleted 3 customers');
  expect(describeText(bulk('customers.bulk_undone', { restored: 2, changed_since: 1 }))).toBe(
    'Olivia undid a bulk change to 2 customers (1 customer changed since kept their later change)',
  );
});
