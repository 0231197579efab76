// D57 the audit words of saved views: a shared view by its name, a personal one never named.
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
