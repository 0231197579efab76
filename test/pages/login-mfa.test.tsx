// D54: the login's second step on the login screen: a 202 after the password shows the code step (6 digits,
// 'Use a recovery code', 'Back'); its refusals in words; an expired challenge goes back to the password.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import LoginPage from '../../src/pages/login/LoginPage';
import { MSG_CODE_REQUIRED } from '../../src/pages/login/MfaStep';
import { MSG_MFA_EXPIRED, MSG_MFA_INVALID, MSG_RECOVERY_INVALID } from '../../src/session/mfa-words';
import { toasts } from '../../src/ui/toast';
import { Toaster } from '../../src/ui/toaster';
import { json, ORGS, profile } from '../helpers/fake-api';
import { GOOD_CODE, RECOVERY_CODES } from '../helpers/fake-mfa';
import { renderWithSession } from '../helpers/render';
import { pageSession } from '../helpers/session';

beforeEach(() => toasts.setState([]));
afterEach(() => toasts.setState([]));

/** The login screen for a person with two-step sign-in on; the password step already passed. */
async function atCodeStep({ remember = true } = {}) {
  const t = pageSession({ path: '/login' });
  t.api.mfa.required = true;
  t.api.me = () => json(200, profile({ organizations: [ORGS[0]] }));
  renderWithSession(
    t,
    <>
      <LoginPage />
      <Toaster />
    </>,
  );
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'owner@demo.test' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'demo-password' } });
  if (!remember) fireEvent.click(screen.getByRole('checkbox', { name: 'Remember Me' }));
  fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
  await screen.findByRole('heading', { level: 1, name: 'Two-step sign-in' });
  return t;
}
const code = () => screen.getByLabelText('6-digit code') as HTMLInputElement;
const verify = () => fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
const mfaBodies = (t: Awaited<ReturnType<typeof atCodeStep>>) => t.api.calls.filter((c) => c.path === '/api/v1/auth/mfa/').map((c) => c.body);

describe('D54 the login’s second step', () => {
  it('D54 a 202 after the password shows the code step: a numeric one-time-code input with the focus, no tokens yet', async () => {
    const t = await atCodeStep();
    expect(code().getAttribute('inputmode')).toBe('numeric');
    expect(code().getAttribute('autocomplete')).toBe('one-time-code');
    await waitFor(() => expect(document.activeElement).toBe(code()));
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(t.storage.get('access_token')).toBeNull();
    expect(t.navigate).not.toHaveBeenCalled();
  });

  it('D54 the right code signs in as a login does, with the first step’s remember-me (D36)', async () => {
    const t = await atCodeStep({ remember: false });
    fireEvent.change(code(), { target: { value: '123 456' } });
    verify();
    await waitFor(() => expect(t.navigate).toHaveBeenCalledWith('/dashboard', { replace: true }));
    expect(mfaBodies(t)).toEqual([{ challenge: 'challenge-1', code: GOOD_CODE }]);
    expect(t.storage.get('remember_me')).toBe('false');
  });

  it('D54 fewer than 6 digits is caught before sending', async () => {
    const t = await atCodeStep();
    fireEvent.change(code(), { target: { value: '12345' } });
    verify();
    expect(screen.getByText(MSG_CODE_REQUIRED)).toBeTruthy();
    expect(code().getAttribute('aria-invalid')).toBe('true');
    expect(mfaBodies(t)).toEqual([]);
  });

  it("D54 a wrong code → 'That code did not work. Check the time on your phone and try again.'; what was typed stays", async () => {
    await atCodeStep();
    fireEvent.change(code(), { target: { value: '000000' } });
    verify();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(MSG_MFA_INVALID);
    expect(code().value).toBe('000000');
    expect(code().getAttribute('aria-describedby')).toContain(alert.id);
    await waitFor(() => expect(document.activeElement).toBe(code()));
  });

  it("D54 'Use a recovery code' switches the input; a used one is refused in words; a fresh one signs in", async () => {
    const t = await atCodeStep();
    const [first, second] = RECOVERY_CODES as [string, string];
    t.api.mfa.usedRecovery.add(first);
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const input = screen.getByLabelText('Recovery code') as HTMLInputElement;
    expect(input.getAttribute('inputmode')).toBe('text');
    await waitFor(() => expect(document.activeElement).toBe(input));
    fireEvent.change(input, { target: { value: first } });
    verify();
    expect((await screen.findByRole('alert')).textContent).toBe(MSG_RECOVERY_INVALID);
    fireEvent.change(input, { target: { value: ` ${second} ` } });
    verify();
    await waitFor(() => expect(t.navigate).toHaveBeenCalledWith('/dashboard', { replace: true }));
    expect(mfaBodies(t).at(-1)).toEqual({ challenge: 'challenge-1', recovery_code: second });
  });

  it("D54 'Back' returns to the password step with the email kept and the password empty", async () => {
    await atCodeStep();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('owner@demo.test');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Password')));
  });

  it('D54 an expired challenge (410) goes back to the password step with a message', async () => {
    const t = await atCodeStep();
    t.api.mfa.expired = true;
    fireEvent.change(code(), { target: { value: GOOD_CODE } });
    verify();
    expect(await screen.findByText(MSG_MFA_EXPIRED)).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Two-step sign-in' })).toBeNull();
  });

  it("D54 a throttled second step (429) says what a throttled login says: 'Login failed. Please try again.'", async () => {
    const t = await atCodeStep();
    t.api.mfa.throttled = true;
    fireEvent.change(code(), { target: { value: GOOD_CODE } });
    verify();
    expect((await screen.findByRole('alert')).textContent).toBe('Login failed. Please try again.');
    await act(async () => undefined);
    expect(t.navigate).not.toHaveBeenCalled();
  });
});
