// D56 the customer page shows the customer's set custom values with their labels, in the fields' order,
// each in words (a choice by its option's label, a date as the page writes dates, yes/no as Yes or No).
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { Customer } from '../../contract/customers';
import CustomerDashboardPage from '../../src/pages/customers/CustomerDashboardPage';
import { navigate } from '../../src/router/location';
import { FakeApi } from '../helpers/fake-api';
import { audit, OLIVIA } from '../helpers/fake-customer';
import { demoFields, serveFieldDefs } from '../helpers/fake-field-defs';
import { fakeParts } from '../helpers/fake-parts';
import { EDITOR } from '../helpers/customer-page';
import { renderPage } from '../helpers/render';

function show(over: Partial<Customer>, fields = demoFields()) {
  const api = new FakeApi();
  api.record.customer = { ...api.record.customer!, ...over };
  api.record.items = [audit(10, 'customer.created', OLIVIA, 0, { name: 'Jane Doe' })];
  fakeParts(api);
  const defs = serveFieldDefs(api, fields);
  renderPage('/customers/101', <CustomerDashboardPage />, { as: EDITOR, fake: api, params: { id: '101' } });
  return { api, defs };
}

const pairs = (dl: HTMLElement) => [...dl.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);

beforeEach(() => navigate('/', { replace: true }));

describe('D56 custom values on the customer page', () => {
  it('D56 the set values with their labels, in the fields’ order, each in words; unset, archived and unknown keys are not shown', async () => {
    show({
      // the answer's order is not the fields' order
      custom: { key_held: false, pets: ['o3', 'o1'], plan: 'o2', contract_end: '2026-03-01', units: 1250.5, gate_code: '4321', old: 'kept', gone: 'x' },
    });
    const heading = await screen.findByRole('heading', { level: 2, name: 'More details' });
    const dl = heading.nextElementSibling as HTMLElement;
    expect(pairs(dl)).toEqual([
      ['Gate code', '4321'],
      ['Units', (1250.5).toLocaleString()],
      ['Contract end', new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(2026, 2, 1))],
      ['Plan', 'Premium'],
      ['Pets', 'Bird, Dog'],
      ['Key held', 'No'],
    ]);
    expect(within(dl).queryByText('Old field')).toBeNull();
  });

  it('D56 a customer with no value set shows no custom section', async () => {
    show({ custom: {} });
    await screen.findByRole('heading', { level: 1, name: 'Jane Doe' });
    await screen.findByRole('heading', { level: 2, name: 'Billing address' });
    expect(screen.queryByRole('heading', { name: 'More details' })).toBeNull();
  });

  it('D56 the page asks for the definitions once', async () => {
    const { defs } = show({ custom: { plan: 'o1' } });
    await screen.findByRole('heading', { level: 2, name: 'More details' });
    expect(defs.calls()).toBe(1);
  });
});
