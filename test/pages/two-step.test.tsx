// D54: the account page's two-step sign-in section on its own: off → the password and setup (QR code, key in groups of 4,
// Copy) → confirm with a code → recovery codes shown once → on → turn off with password and code; each
// refusal in words with what was typed kept.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import TwoStepSection, { MSG_ALREADY_ON } from '../../src/pages/account/TwoStepSection';
import { MSG_CODES_COPIED } from '../../src/pages/account/TwoStepCodes';
import { MSG_WRONG_PASSWORD } from '../../src/pages/account/TwoStepOff';
import { MSG_CODE_SIX_DIGITS, MSG_KEY_BY_HAND, MSG_KEY_COPIED } from '../../src/pages/account/TwoStepSetup';
import { MSG_MFA_INVALID } from '../../src/session/mfa-words';
import { USER } from '../helpers/fake-api';
import { GOOD_CODE, PASSWORD, RECOVERY_CODES, SECRET } from '../helpers/fake-mfa';
import { renderPage } from '../helpers/render';
import { NO_ORG, WITH_ORG } from '../helpers/session';

let clipboard: { writeText: ReturnType<typeof vi.fn> };
beforeEach(() => {
  clipboard = { writeText: vi.fn(() => Promise.resolve()) };
  Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true });
});

const show = (enabled = false, as = WITH_ORG) => renderPage('/account', <TwoStepSection />, { as: { ...as, user: { ...USER, mfa_enabled: enabled } } });
const button = (name: string) => screen.getByRole('button', { name });
const heading = () => screen.getByRole('heading', { level: 2, name: 'Two-step sign-in' });

/** D54: the password, then 'Turn on'. */
function turnOn(password = PASSWORD) {
  fireEvent.change(screen.getByLabelText('Your password'), { target: { value: password } });
  fireEvent.click(button('Turn on'));
}

async function toSetup() {
  const t = show();
  turnOn();
  await screen.findByRole('img', { name: 'QR code for two-step sign-in' });
  // The step's move of the focus to the heading (a passive effect) can come after the QR code is in the
  // document; a person cannot click before it, and a click before it had its focus taken back (a flake).
  await waitFor(() => expect(document.activeElement).toBe(heading()));
  return t;
}
const codeInput = () => screen.getByLabelText('Enter the 6-digit code the app shows') as HTMLInputElement;

describe('D54 two-step sign-in section', () => {
  it("D54 off: says what it does and offers 'Turn on'", () => {
    show();
    expect(heading()).toBeTruthy();
    expect(screen.getByText(/Off\./)).toBeTruthy();
    expect(button('Turn on')).toBeTruthy();
  });

  it('D54 setup shows the QR code as an SVG path and the key typed out in groups of 4, with Copy', async () => {
    const t = await toSetup();
    expect(t.api.count('/api/v1/account/mfa/setup/', 'POST')).toBe(1);
    const svg = screen.getByRole('img', { name: 'QR code for two-step sign-in' });
    expect(svg.tagName.toLowerCase()).toBe('svg');
    expect(svg.querySelector('path')?.getAttribute('d')).toMatch(/^M4 4h1v1h-1z/); // the finder's corner
    const key = screen.getByRole('textbox', { name: 'Or enter this key by hand' });
    expect(key.textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    fireEvent.click(button('Copy'));
    expect(await screen.findByText(MSG_KEY_COPIED)).toBeTruthy();
    expect(clipboard.writeText).toHaveBeenCalledWith(SECRET);
    expect(codeInput().getAttribute('inputmode')).toBe('numeric');
    expect(codeInput().getAttribute('autocomplete')).toBe('one-time-code');
  });

  it('D54 setup is asked for with the password typed before it', async () => {
    const t = await toSetup();
    expect(t.api.calls.filter((c) => c.path === '/api/v1/account/mfa/setup/').map((c) => c.body)).toEqual([{ password: PASSWORD }]);
  });

  it('D54 Copy falls back to selecting the key when the clipboard refuses', async () => {
    clipboard.writeText.mockRejectedValue(new Error('denied'));
    await toSetup();
    fireEvent.click(button('Copy'));
    expect(await screen.findByText(MSG_KEY_BY_HAND)).toBeTruthy();
    const key = screen.getByRole('textbox', { name: 'Or enter this key by hand' });
    expect(document.activeElement).toBe(key);
    expect(window.getSelection()?.toString()).toBe(key.textContent);
  });

  it('D54 a code that is not 6 digits is caught before sending; a wrong one is refused in words and kept', async () => {
    const t = await toSetup();
    fireEvent.change(codeInput(), { target: { value: '12ab' } });
    fireEvent.click(button('Turn on'));
    expect(screen.getByRole('alert').textContent).toBe(MSG_CODE_SIX_DIGITS);
    expect(t.api.count('/api/v1/account/mfa/confirm/')).toBe(0);
    fireEvent.change(codeInput(), { target: { value: '654321' } });
    fireEvent.click(button('Turn on'));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(MSG_MFA_INVALID));
    expect(codeInput().value).toBe('654321');
    expect(codeInput().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(codeInput());
  });

  it('D54 the right code turns it on: the recovery codes are shown once, with Copy and "I have saved them"; the session knows', async () => {
    const t = await toSetup();
    fireEvent.change(codeInput(), { target: { value: GOOD_CODE } });
    fireEvent.click(button('Turn on'));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(RECOVERY_CODES);
    await waitFor(() => expect(document.activeElement).toBe(heading()));
    await waitFor(() => expect(t.session.store.getState().user?.mfa_enabled).toBe(true));
    fireEvent.click(button('Copy'));
    expect(await screen.findByText(MSG_CODES_COPIED)).toBeTruthy();
    expect(clipboard.writeText).toHaveBeenCalledWith(RECOVERY_CODES.join('\n'));
    fireEvent.click(button('I have saved them'));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull(); // shown once
    expect(button('Turn off')).toBeTruthy();
  });

  it('D54 the person’s own calls go without X-Organization-ID (an organization that requires it must not refuse the setup)', async () => {
    const t = await toSetup();
    fireEvent.change(codeInput(), { target: { value: GOOD_CODE } });
    fireEvent.click(button('Turn on'));
    await screen.findByRole('list', { name: 'Recovery codes' });
    const own = t.api.calls.filter((c) => c.path.startsWith('/api/v1/account/mfa/'));
    expect(own.map((c) => c.path)).toEqual(['/api/v1/account/mfa/setup/', '/api/v1/account/mfa/confirm/']);
    expect(own.every((c) => c.headers.authorization && !('x-organization-id' in c.headers))).toBe(true);
  });

  it("D54 Cancel during setup goes back to 'Turn on'", async () => {
    await toSetup();
    fireEvent.click(button('Cancel'));
    expect(button('Turn on')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('D54 a setup answered 409 mfa_enabled shows it on, in words', async () => {
    const t = show();
    t.api.mfa.enabled = true;
    turnOn();
    expect((await screen.findByRole('alert')).textContent).toBe(MSG_ALREADY_ON);
    expect(button('Turn off')).toBeTruthy();
  });

  it('D54 a network failure on setup says so and stays off', async () => {
    const t = show();
    t.api.offline = true;
    turnOn();
    expect((await screen.findByRole('alert')).textContent).toBe('Could not reach the server. Check your connection and try again.');
    expect(button('Turn on')).toBeTruthy();
  });

  it('D54 on → Turn off needs the password and a code; each refusal lands on its field with the typing kept', async () => {
    const t = show(true);
    t.api.mfa.enabled = true;
    fireEvent.click(button('Turn off'));
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    const code = screen.getByLabelText('Code from your app, or a recovery code') as HTMLInputElement;
    fireEvent.click(button('Turn off two-step sign-in'));
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    expect(t.api.count('/api/v1/account/mfa/', 'DELETE')).toBe(0);
    fireEvent.change(password, { target: { value: 'not-it' } });
    fireEvent.change(code, { target: { value: GOOD_CODE } });
    fireEvent.click(button('Turn off two-step sign-in'));
    expect(await screen.findByText(MSG_WRONG_PASSWORD)).toBeTruthy();
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(password.value).toBe('not-it');
    fireEvent.change(password, { target: { value: PASSWORD } });
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(button('Turn off two-step sign-in'));
    expect(await screen.findByText(MSG_MFA_INVALID)).toBeTruthy();
    expect(code.value).toBe('000000');
    fireEvent.change(code, { target: { value: GOOD_CODE } });
    fireEvent.click(button('Turn off two-step sign-in'));
    expect(await screen.findByRole('button', { name: 'Turn on' })).toBeTruthy();
    expect(t.api.calls.filter((c) => c.method === 'DELETE').at(-1)?.body).toEqual({ password: PASSWORD, code: GOOD_CODE });
    expect(t.session.store.getState().user?.mfa_enabled).toBe(false);
  });

  it('D54 an organization that requires it says so in the section, until it is on', async () => {
    show(false, { ...WITH_ORG, currentOrg: { id: 1, name: 'Acme Plumbing', logo_url: null, require_mfa: true } });
    expect(screen.getByText('Acme Plumbing requires two-step sign-in. Turn it on to continue to its pages.').getAttribute('role')).toBe('status');
  });

  it('D54 without an organization the section works the same (the account page needs none)', async () => {
    show(false, NO_ORG);
    turnOn();
    expect(await screen.findByRole('img', { name: 'QR code for two-step sign-in' })).toBeTruthy();
  });
});
