// The customer page (customers/{id}) rendered for the tests of its sections: Jane Doe's record
// (fake-customer.ts) with her locations and contacts (fake-parts.ts), signed in with the given permissions.
import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { Customer, TimelineItem } from '../../contract/customers';
import CustomerDashboardPage from '../../src/pages/customers/CustomerDashboardPage';
import type { SessionState } from '../../src/session/types';
import { toasts } from '../../src/ui/toast';
import { FakeApi } from './fake-api';
import { audit, OLIVIA } from './fake-customer';
import { fakeParts } from './fake-parts';
import { renderPage } from './render';
import { WITH_ORG } from './session';

const BASE = ['dashboard:view', 'customers:view'];
export const as = (...permissions: string[]): Partial<SessionState> => ({ ...WITH_ORG, permissions: [...BASE, ...permissions] });
export const EDITOR = as('customers:update');
export const VIEWER = as();

/** Renders /customers/101 with `over` on Jane Doe's record and `items` as her timeline. */
export function showCustomer(over: Partial<Customer> = {}, state: Partial<SessionState> = EDITOR, items?: TimelineItem[]) {
  const api = new FakeApi();
  const record = api.record;
  record.customer = { ...record.customer!, ...over };
  record.items = items ?? [audit(10, 'customer.created', OLIVIA, 0, { name: 'Jane Doe' })];
  const parts = fakeParts(api);
  const t = renderPage('/customers/101', <CustomerDashboardPage />, { as: state, fake: api, params: { id: '101' } });
  return { api, record, parts, t };
}

export const loaded = () => screen.findByRole('heading', { level: 1, name: 'Jane Doe' });
export const region = (name: string) => screen.getByRole('region', { name });
/** The section once its code is here (its list or its empty words), not the stand-in shown until then. */
export const section = async (name: string) => {
  await loaded();
  await waitFor(() => expect(region(name).querySelector('.spinner')).toBeNull());
  return region(name);
};
export const toastTexts = () => toasts.getState().map((t) => (typeof t.message === 'string' ? t.message : ''));
/** The timeline's sentences, without their times. */
export const timelineTexts = () =>
  within(region('Notes and history'))
    .queryAllByRole('listitem')
    .filter((li) => li.classList.contains('timeline-item'))
    .map((li) => li.querySelector('.timeline-line > span')!.textContent!.replace(/\s+/g, ' ').trim());
