// D50 D56: a custom field's change on the timeline is named by its label, a choice by its options' labels
// as they were; 'Restore this value' puts the old value back inside `custom` while the field is active.
import { fireEvent, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import { navigate } from '../../src/router/location';
import { toasts } from '../../src/ui/toast';
import { loaded, region, showCustomer, timelineTexts, toastTexts } from '../helpers/customer-page';
import { audit, OLIVIA, SAM } from '../helpers/fake-customer';
import { fieldDef, serveFieldDefs } from '../helpers/fake-field-defs';

const PLAN_CHANGE = audit(12, 'customer.updated', SAM, 50, {
  'custom.plan': { from: 'o1', to: 'o2', label: 'Maintenance plan', shown: { from: 'Gold', to: 'Silver' } },
});
const OLD_CHANGE = audit(11, 'customer.updated', SAM, 40, { 'custom.old': { from: 'A1', to: 'B2', label: 'Old code' } });
const CREATED = audit(10, 'customer.created', OLIVIA, 0, { name: 'Jane Doe' });

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
});

describe('D56 custom values on the timeline', () => {
  it('D56 D50 a choice’s change says its options’ labels, and Restore this value sends the old option inside custom; an archived field’s is not offered', async () => {
    const page = showCustomer({ custom: { plan: 'o2' } }, undefined, [PLAN_CHANGE, OLD_CHANGE, CREATED]);
    serveFieldDefs(page.api, [fieldDef({ key: 'plan', label: 'Maintenance plan', type: 'choice', options: ['Gold', 'Silver'] })]);
    await loaded();
    await waitFor(() => expect(timelineTexts()).toHaveLength(3));
    expect(timelineTexts()[0]).toBe('Sam changed Maintenance plan from Gold to Silver');
    expect(timelineTexts()[1]).toBe('Sam changed Old code from A1 to B2');
    const timeline = region('Notes and history');
    const button = await within(timeline).findByRole('button', { name: 'Restore this value: Maintenance plan “Gold”' });
    expect(within(timeline).getAllByRole('button', { name: /^Restore/ })).toHaveLength(1); // Old code is archived: not offered
    fireEvent.click(button);
    await waitFor(() => expect(page.record.calls('/v1/customers/101/', 'PATCH').map((c) => c.body)).toEqual([{ custom: { plan: 'o1' }, version: 3 }]));
    await waitFor(() => expect(toastTexts()).toContain('Restored the Maintenance plan'));
  });
});
