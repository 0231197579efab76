import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import LoginPage from '../../src/pages/login/LoginPage';
import { toasts } from '../../src/ui/toast';
import { Toaster } from '../../src/ui/toaster';
import { accessToken, ACME, json } from '../helpers/fake-api';
import { renderWithSession } from '../helpers/render';
import { pageSession, type TestSession } from '../helpers/session';

beforeEach(() => toasts.setState([]));
afterEach(() => toasts.setState([]));

function show(t: TestSession) {
  return renderWithSession(
    t,
    <>
      <LoginPage />
      <Toaster />
    </>,
  );
}
const email = () => screen.getByLabelText('Email') as HTMLInputElement;
const password = () => screen.getByLabelText('Password') as HTMLInputElement;
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
function fill(e: string, p: string) {
  fireEvent.change(email(), { target: { value: e } });
  fireEvent.change(password(), { target: { value: p } });
}

describe('login screen', () => {
  it('SPEC §2 Login: title, an email-type Email field, Password, Remember Me checked by default, Log In', () => {
    show(pageSession());
    expect(screen.getByRole('heading', { level: 1, name: 'Login' })).toBeTruthy();
    expect(email().type).toBe('email');
    expect(password().type).toBe('password');
    expect((screen.getByRole('checkbox', { name: 'Remember Me' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy();
  });

  it("SPEC §5 empty fields show 'Email is required' and 'Password is required' and send nothing", () => {
    const t = pageSession();
    show(t);
    submit();
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(email().getAttribute('aria-invalid')).toBe('true');
    expect(email().getAttribute('aria-describedby')).toBe(screen.getByText('Email is required').id);
    expect(document.activeElement).toBe(email());
    expect(t.fetch).not.toHaveBeenCalled();
  });

  it('SPEC §5 only the missing password is reported when the email is filled', () => {
    show(pageSession());
    fireEvent.change(email(), { target: { value: 'owner@demo.test' } });
    submit();
    expect(screen.queryByText('Email is required')).toBeNull();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(document.activeElement).toBe(password());
  });

  it("SPEC §2 the button reads 'Logging in…' while submitting and a second press sends nothing", async () => {
    let answer!: (r: Response) => void;
    const t = pageSession({ fetch: () => new Promise<Response>((r) => (answer = r)) });
    show(t);
    fill('owner@demo.test', 'demo-password');
    submit();
    const busy = screen.getByRole('button', { name: 'Logging in…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    fireEvent.submit(busy.form!);
    expect(t.fetch).toHaveBeenCalledTimes(1);
    await act(async () => answer(json(401, { detail: 'Invalid email or password.' })));
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeTruthy();
  });

  it("SPEC §8 a 401 shows 'Login failed. Check your credentials.' as an error toast; the email stays", async () => {
    const t = pageSession({ fetch: async () => json(401, { detail: 'Invalid email or password.', code: 'invalid_credentials' }) });
    show(t);
    fill('owner@demo.test', 'wrong');
    submit();
    const msg = await screen.findByText('Login failed. Check your credentials.');
    expect(msg.closest('[data-kind]')?.getAttribute('data-kind')).toBe('error');
    expect(email().value).toBe('owner@demo.test');
    expect(password().value).toBe('');
    await waitFor(() => expect(document.activeElement).toBe(password()));
  });

  it("SPEC §8 a 400 also shows 'Login failed. Check your credentials.'", async () => {
    show(pageSession({ fetch: async () => json(400, { detail: 'email: required' }) }));
    fill('x@demo.test', 'pw');
    submit();
    expect(await screen.findByText('Login failed. Check your credentials.')).toBeTruthy();
  });

  it("SPEC §8 any other failure shows 'Login failed. Please try again.'", async () => {
    show(pageSession({ fetch: async () => json(503, { detail: 'boom' }) }));
    fill('owner@demo.test', 'demo-password');
    submit();
    expect(await screen.findByText('Login failed. Please try again.')).toBeTruthy();
  });

  it("SPEC §8 a network failure shows 'Login failed. Please try again.'", async () => {
    const t = pageSession();
    t.api.offline = true;
    show(t);
    fill('owner@demo.test', 'demo-password');
    submit();
    expect(await screen.findByText('Login failed. Please try again.')).toBeTruthy();
  });

  it('SPEC §3 the login payload carries email, password and remember_me (true by default, false when unticked)', async () => {
    const t = pageSession({ fetch: async () => json(401, {}) });
    show(t);
    fill(' owner@demo.test ', 'demo-password');
    submit();
    await screen.findByText('Login failed. Check your credentials.');
    expect(JSON.parse(String(t.fetch.mock.calls[0]?.[1]?.body))).toEqual({ email: 'owner@demo.test', password: 'demo-password', remember_me: true });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Remember Me' }));
    fill('owner@demo.test', 'demo-password');
    submit();
    await waitFor(() => expect(t.fetch).toHaveBeenCalledTimes(2));
    expect(JSON.parse(String(t.fetch.mock.calls[1]?.[1]?.body)).remember_me).toBe(false);
  });

  it('a successful login hands over to the session, which goes to the dashboard', async () => {
    const t = pageSession({
      fetch: async (input) =>
        String(input).endsWith('/v1/auth/login/')
          ? json(200, { access_token: accessToken(), refresh_token: 'r1', session_id: 7 })
          : json(200, {
              user: { email: 'solo@demo.test', first_name: 'Sam', avatar_url: null },
              organizations: [ACME],
              permissions: ['dashboard:view'],
              features: [],
              role: 'member',
            }),
    });
    show(t);
    fill('solo@demo.test', 'demo-password');
    submit();
    await waitFor(() => expect(t.navigate).toHaveBeenCalledWith('/dashboard', { replace: true }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("a failed login's toast goes when the next attempt succeeds (it would cover the next screen's top bar)", async () => {
    let attempt = 0;
    const t = pageSession({
      fetch: async (input) => {
        if (!String(input).endsWith('/v1/auth/login/')) {
          return json(200, {
            user: { email: 'solo@demo.test', first_name: 'Sam', avatar_url: null },
            organizations: [ACME],
            permissions: ['dashboard:view'],
            features: [],
            role: 'member',
          });
        }
        return ++attempt === 1
          ? json(401, { detail: 'Invalid email or password.', code: 'invalid_credentials' })
          : json(200, { access_token: accessToken(), refresh_token: 'r1', session_id: 7 });
      },
    });
    show(t);
    fill('solo@demo.test', 'wrong');
    submit();
    await screen.findByText('Login failed. Check your credentials.');
    fill('solo@demo.test', 'demo-password');
    submit();
    await waitFor(() => expect(t.navigate).toHaveBeenCalledWith('/dashboard', { replace: true }));
    await waitFor(() => expect(screen.queryByText('Login failed. Check your credentials.')).toBeNull());
  });

  it('SPEC §2 a stored toast reason is shown as an error on load and then cleared', () => {
    const t = pageSession();
    t.kv.map.set('toast_reason', 'Session could not be loaded. Please log in again.');
    show(t);
    const msg = screen.getByText('Session could not be loaded. Please log in again.');
    expect(msg.closest('[data-kind]')?.getAttribute('data-kind')).toBe('error');
    expect(t.kv.map.has('toast_reason')).toBe(false);
  });
});
