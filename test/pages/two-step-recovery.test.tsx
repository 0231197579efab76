// D54: the password before two-step sign-in is turned on, how many recovery codes are left (a live
// region), 'Download as text file', and 'Make new recovery codes' (the password, a warning that the old
// codes stop working, the new set shown once); every refusal keeps what was typed.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import type { AccountView } from '../../contract/account';
import TwoStepSection from '../../src/pages/account/TwoStepSection';
import { MSG_OLD_CODES_END } from '../../src/pages/account/TwoStepRenew';
import { MSG_PASSWORD_REQUIRED, MSG_WRONG_PASSWORD } from '../../src/pages/account/TwoStepOff';
import { MSG_UNREACHABLE } from '../../src/ui/error-words';
import { USER } from '../helpers/fake-api';
import { GOOD_CODE, NEW_RECOVERY_CODES, PASSWORD, RECOVERY_CODES } from '../helpers/fake-mfa';
import { renderPage } from '../helpers/render';
import { WITH_ORG } from '../helpers/session';

const EMAIL = 'olive@example.com';
const account = (on: boolean, left: number | null): AccountView => ({
  id: 1,
  email: EMAIL,
  first_name: 'Olive',
  mfa_enabled: on,
  recovery_codes_left: left,
  created_at: '2024-01-02T10:00:00.000Z',
});
const show = (on = false, left: number | null = null) => {
  const t = renderPage('/account', <TwoStepSection account={account(on, left)} />, { as: { ...WITH_ORG, user: { ...USER, mfa_enabled: on } } });
  t.api.mfa.enabled = on;
  return t;
};
const button = (name: string) => screen.getByRole('button', { name });
const password = () => screen.getByLabelText('Your password') as HTMLInputElement;
const typePassword = (value: string) => fireEvent.change(password(), { target: { value } });
const left = () => screen.getByRole('status', { name: 'Recovery codes left' });
const shownCodes = () => [...screen.getByRole('list', { name: 'Recovery codes' }).querySelectorAll('li')].map((li) => li.textContent);

afterEach(() => vi.restoreAllMocks());

describe('D54 the password before turning it on', () => {
  it('D54 Turn on asks for the password: none is caught before sending, a wrong one lands on its field, kept and focused', async () => {
    const t = show();
    fireEvent.click(button('Turn on'));
    expect(await screen.findByText(MSG_PASSWORD_REQUIRED)).toBeTruthy();
    expect(t.api.count('/api/v1/account/mfa/setup/', 'POST')).toBe(0);
    typePassword('not-it');
    fireEvent.click(button('Turn on'));
    expect(await screen.findByText(MSG_WRONG_PASSWORD)).toBeTruthy();
    expect(password().value).toBe('not-it');
    expect(password().getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(password()));
    expect(screen.queryByRole('img', { name: 'QR code for two-step sign-in' })).toBeNull();
  });

  it('D54 a network failure on Turn on says so and keeps the password typed', async () => {
    const t = show();
    t.api.offline = true;
    typePassword(PASSWORD);
    fireEvent.click(button('Turn on'));
    expect((await screen.findByRole('alert')).textContent).toBe(MSG_UNREACHABLE);
    expect(password().value).toBe(PASSWORD);
  });
});

describe('D54 recovery codes left', () => {
  it.each([
    [7, '7 recovery codes left.'],
    [1, '1 recovery code left.'],
    [0, 'No recovery codes left: make new ones.'],
  ])('D54 on with %i codes unused, the section says "%s"', (n, words) => {
    show(true, n);
    expect(left().textContent).toBe(words);
  });

  it('D54 off, nothing is said about recovery codes; turned on, the live region (there from the start) says 10', async () => {
    show();
    const region = left();
    expect(region.textContent).toBe('');
    typePassword(PASSWORD);
    fireEvent.click(button('Turn on'));
    fireEvent.change(await screen.findByLabelText('Enter the 6-digit code the app shows'), { target: { value: GOOD_CODE } });
    fireEvent.click(button('Turn on'));
    await screen.findByRole('list', { name: 'Recovery codes' });
    expect(left()).toBe(region);
    expect(region.textContent).toBe('10 recovery codes left.');
  });
});

describe('D54 Make new recovery codes', () => {
  async function toRenew(n = 2) {
    const t = show(true, n);
    fireEvent.click(button('Make new recovery codes'));
    await screen.findByRole('form', { name: 'Make new recovery codes' });
    return t;
  }

  it('D54 asks for the password, warns the old codes stop working, and shows the new set once; the count says 10', async () => {
    const t = await toRenew();
    const region = left();
    expect(screen.getByText(MSG_OLD_CODES_END, { exact: false })).toBeTruthy();
    typePassword(PASSWORD);
    fireEvent.click(button('Make new codes'));
    await screen.findByRole('list', { name: 'Recovery codes' });
    expect(shownCodes()).toEqual(NEW_RECOVERY_CODES);
    expect(screen.getByText('New recovery codes: your old ones no longer work.')).toBeTruthy();
    expect(t.api.calls.filter((c) => c.path === '/api/v1/account/mfa/recovery-codes/').map((c) => c.body)).toEqual([{ password: PASSWORD }]);
    expect(left()).toBe(region);
    expect(region.textContent).toBe('10 recovery codes left.');
    fireEvent.click(button('I have saved them'));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(button('Make new recovery codes')).toBeTruthy();
  });

  it('D54 keeps the password through a wrong password (on its field), a 409 and a network failure; Cancel keeps the old set', async () => {
    const t = await toRenew(4);
    typePassword('not-it');
    fireEvent.click(button('Make new codes'));
    expect(await screen.findByText(MSG_WRONG_PASSWORD)).toBeTruthy();
    expect(password().value).toBe('not-it');
    typePassword(PASSWORD);
    t.api.mfa.enabled = false; // turned off in another tab
    fireEvent.click(button('Make new codes'));
    expect((await screen.findByRole('alert')).textContent).toBe('Two-step sign-in is not on');
    expect(password().value).toBe(PASSWORD);
    t.api.mfa.enabled = true;
    t.api.offline = true;
    fireEvent.click(button('Make new codes'));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(MSG_UNREACHABLE));
    expect(password().value).toBe(PASSWORD);
    fireEvent.click(button('Cancel'));
    expect(left().textContent).toBe('4 recovery codes left.');
  });
});

describe('D54 Download as text file', () => {
  it('D54 the codes as recovery-codes.txt: a heading naming the product and the account email, then one code a line', async () => {
    const made: Blob[] = [];
    const clicked: { download: string; href: string }[] = [];
    Object.assign(URL, { createObjectURL: URL.createObjectURL ?? (() => ''), revokeObjectURL: URL.revokeObjectURL ?? (() => undefined) });
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => (made.push(b as Blob), 'blob:codes'));
    const revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.getAttribute('href') ?? '' });
    });
    show();
    typePassword(PASSWORD);
    fireEvent.click(button('Turn on'));
    fireEvent.change(await screen.findByLabelText('Enter the 6-digit code the app shows'), { target: { value: GOOD_CODE } });
    fireEvent.click(button('Turn on'));
    await screen.findByRole('list', { name: 'Recovery codes' });
    fireEvent.click(button('Download as text file'));
    expect(clicked).toEqual([{ download: 'recovery-codes.txt', href: 'blob:codes' }]);
    expect(made[0]?.type).toMatch(/^text\/plain/);
    const lines = (await made[0]!.text()).split('\n');
    expect(lines[0]).toBe(`CRM recovery codes for ${EMAIL}`);
    expect(lines.filter((l) => RECOVERY_CODES.includes(l))).toEqual(RECOVERY_CODES);
    expect(lines.slice(-11, -1)).toEqual(RECOVERY_CODES);
    await waitFor(() => expect(revoked).toHaveBeenCalledWith('blob:codes'));
  });
});
