// D50 'Restore this value' on the customer's timeline: for who has customers:update, on each field change
// whose old value the customer no longer has; a PATCH of that field with the version the page shows (D31),
// then a new timeline entry; a 409 conflict restores nothing, reloads the customer and says so.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import { MSG_RESTORE_CONFLICT } from '../../src/pages/customers/detail/RestoreValue';
import { navigate } from '../../src/router/location';
import { toasts } from '../../src/ui/toast';
import { audit, janeDoe, note, OLIVIA, SAM } from '../helpers/fake-customer';
import { loaded, region, showCustomer, timelineTexts, toastTexts, VIEWER } from '../helpers/customer-page';

const PHONE_CHANGE = audit(12, 'customer.updated', SAM, 50, { phone: { from: '(503) 555-0100', to: '(503) 555-0199' } });
const CREATED = audit(10, 'customer.created', OLIVIA, 0, { name: 'Jane Doe' });
const RESTORE_PHONE = 'Restore this value: phone “(503) 555-0100”';
const timeline = () => region('Notes and history');
const entry = (i: number) =>
  within(timeline())
    .getAllByRole('listitem')
    .filter((li) => li.classList.contains('timeline-item'))[i]!;
const restoreButtons = () => within(timeline()).queryAllByRole('button', { name: /^Restore/ });
const shown = async (items = [PHONE_CHANGE, CREATED], state = undefined as Parameters<typeof showCustomer>[1]) => {
  const page = showCustomer({}, state, items);
  await loaded();
  await waitFor(() => expect(timelineTexts()).toHaveLength(items.length));
  return page;
};

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
});

describe('D50 restore a value', () => {
  it('restores the old value: one field with the page’s version, a toast, a new entry, the button gone, focus on the timeline', async () => {
    const { record } = await shown();
    fireEvent.click(within(entry(0)).getByRole('button', { name: RESTORE_PHONE }));
    await waitFor(() => expect(timelineTexts()[0]).toBe('Olivia changed phone from (503) 555-0199 to (503) 555-0100'));
    expect(record.calls('/v1/customers/101/', 'PATCH').map((c) => c.body)).toEqual([{ phone: '(503) 555-0100', version: 3 }]);
    expect(toastTexts()).toContain('Restored the phone');
    // The old entry offers nothing now (the customer has that phone); the new one offers the way back.
    await waitFor(() => expect(within(entry(1)).queryByRole('button')).toBeNull());
    expect(within(entry(0)).getByRole('button', { name: 'Restore this value: phone “(503) 555-0199”' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '(503) 555-0100' })).toBeTruthy(); // the record shows it
    expect(document.activeElement).toBe(within(timeline()).getByRole('heading', { level: 2 }));
  });

  it('not offered when the customer already has the old value', async () => {
    await shown([audit(12, 'customer.updated', SAM, 50, { phone: { from: '(503) 555-0199', to: '(503) 555-0100' } }), CREATED]);
    expect(restoreButtons()).toEqual([]);
  });

  it('D9 not offered without customers:update', async () => {
    await shown([PHONE_CHANGE, CREATED], VIEWER);
    expect(restoreButtons()).toEqual([]);
  });

  it('not offered for notes, creation, or location and contact changes', async () => {
    await shown([
      audit(13, 'location.updated', SAM, 60, { location_id: 1, location: 'Home', city: { from: 'Salem', to: 'Tigard' } }),
      audit(14, 'contact.updated', SAM, 61, { contact_id: 1, contact: 'Tom', role: { from: 'tenant', to: 'owner' } }),
      note(1, 'Boiler serviced.', SAM, 40),
      CREATED,
    ]);
    expect(restoreButtons()).toEqual([]);
  });

  it('D49 not offered on the entries of a customer merged into this one (their target is that customer)', async () => {
    await shown([audit(12, 'customer.updated', SAM, 50, { phone: { from: '(503) 555-0100', to: '(503) 555-0123' } }, { id: 102, label: 'Anna Lee' }), CREATED]);
    expect(restoreButtons()).toEqual([]);
  });

  it('an entry of several changes offers each field the customer no longer has; lists (tags) and statuses too', async () => {
    const { record } = await shown([
      audit(15, 'customer.updated', SAM, 55, {
        city: { from: 'Salem', to: 'Portland' },
        status: { from: 'lead', to: 'active' },
        tags: { from: ['vip'], to: ['vip', 'boiler'] },
        company: { from: 'Doe Plumbing Supplies', to: 'Doe Plumbing' }, // changed back since: nothing to restore
      }),
      CREATED,
    ]);
    expect(restoreButtons().map((b) => b.getAttribute('aria-label'))).toEqual([
      'Restore the old city “Salem”',
      'Restore the old status “Lead”',
      'Restore the old tags “vip”',
    ]);
    fireEvent.click(within(entry(0)).getByRole('button', { name: 'Restore the old tags “vip”' }));
    await waitFor(() => expect(record.calls('/v1/customers/101/', 'PATCH')).toHaveLength(1));
    expect(record.calls('/v1/customers/101/', 'PATCH')[0]!.body).toEqual({ tags: ['vip'], version: 3 });
    await waitFor(() => expect(within(entry(1)).queryByRole('button', { name: /tags/ })).toBeNull());
  });

  it('D31 a stale version restores nothing: the customer is read again and the person told', async () => {
    const { record } = await shown();
    record.failures.set('PATCH /v1/customers/101/', [
      { status: 409, body: { detail: 'Someone changed this customer since you opened it', code: 'conflict', current: janeDoe({ version: 4 }) } },
    ]);
    const gets = record.calls('/v1/customers/101/', 'GET').length;
    fireEvent.click(within(entry(0)).getByRole('button', { name: RESTORE_PHONE }));
    expect((await within(entry(0)).findByRole('alert')).textContent).toBe(MSG_RESTORE_CONFLICT);
    await waitFor(() => expect(record.calls('/v1/customers/101/', 'GET').length).toBe(gets + 1));
    expect(timelineTexts()).toHaveLength(2); // no new entry
  });

  it('another refusal is said in words next to the button (the server’s words for a 409 on the email)', async () => {
    const { record } = await shown([audit(12, 'customer.updated', SAM, 50, { email: { from: 'jd@example.com', to: 'jane@example.com' } }), CREATED]);
    record.failures.set('PATCH /v1/customers/101/', [{ status: 409, body: { detail: 'Ann Patel already has this email', code: 'duplicate_email', field: 'email' } }]);
    fireEvent.click(within(entry(0)).getByRole('button', { name: 'Restore this value: email “jd@example.com”' }));
    expect((await within(entry(0)).findByRole('alert')).textContent).toBe('Could not restore the email: Ann Patel already has this email.');
  });
});
