// D56 the audit words of custom fields: a definition's entries name the field by its label, and a
// customer's value change (`custom.<key>`) is said with the field's label on every screen.
import { describe, expect, it } from 'vitest';
import type { AuditAction, AuditEntryView } from '../../contract/audit';
import { describeText } from '../../src/audit/describe';

const entry = (action: AuditAction, target: AuditEntryView['target'], changes: Record<string, unknown>): AuditEntryView => ({
  id: 1,
  at: '2024-06-01T12:00:00.000Z',
  actor: { id: 1, name: 'Olivia' },
  action,
  target,
  changes,
});
const JANE = { type: 'customer', id: 42, label: 'Jane Doe' };
const GATE = { type: 'custom_field', id: 7, label: 'Gate code' };

describe('D56 custom fields in words', () => {
  it("D56 a customer's custom value change is named by the field's label on the timeline, the log and the dashboard", () => {
    const e = entry('customer.updated', JANE, { 'custom.gate_code': { from: '1234', to: '5678', label: 'Gate code' } });
    expect(describeText(e, 'timeline')).toBe('Olivia changed Gate code from 1234 to 5678');
    expect(describeText(e, 'log')).toBe('Olivia changed Jane Doe’s Gate code from 1234 to 5678');
    expect(describeText(e, 'recent')).toBe('Olivia changed Gate code of Jane Doe');
  });

  it("D56 a definition's entries say what happened to the field, by its label", () => {
    expect(describeText(entry('custom_field.created', GATE, {}))).toBe('Olivia added the custom field “Gate code”');
    expect(describeText(entry('custom_field.updated', GATE, { label: { from: 'Gate', to: 'Gate code' } }))).toBe('Olivia changed the custom field “Gate code” (label)');
    expect(describeText(entry('custom_field.archived', GATE, {}))).toBe('Olivia archived the custom field “Gate code”');
    expect(describeText(entry('custom_field.restored', GATE, {}))).toBe('Olivia restored the custom field “Gate code”');
    expect(describeText(entry('custom_field.deleted', GATE, { records_with_value: 3 }))).toBe('Olivia deleted the custom field “Gate code” and its values on 3 records');
    expect(describeText(entry('custom_field.reordered', { type: 'custom_field', id: null, label: 'customer' }, {}))).toBe('Olivia reordered the custom fields');
  });
});
