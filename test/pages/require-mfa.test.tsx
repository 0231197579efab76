// D54 require_mfa: in an organization that requires two-step sign-in, a person without it is sent to
// /account (saying why) before any of its pages: from me's flags, and from an organization call's 403
// mfa_enrolment_required; turning it on lets them through.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import '../ui/no-console';
import { navigate } from '../../src/router/location';
import { ACCOUNT_PATH, RequireOrg } from '../../src/router/guards';
import type { SessionState } from '../../src/session/types';
import { SessionProvider } from '../../src/session/use-session';
import { toasts } from '../../src/ui/toast';
import { Toaster } from '../../src/ui/toaster';
import { ACME, json, USER } from '../helpers/fake-api';
import { makeSession, WITH_ORG } from '../helpers/session';

beforeEach(() => toasts.setState([]));
afterEach(() => toasts.setState([]));

const REQUIRING: Partial<SessionState> = { ...WITH_ORG, currentOrg: { ...ACME, require_mfa: true }, user: { ...USER, mfa_enabled: false } };
const MESSAGE = 'Acme Plumbing requires two-step sign-in. Turn it on to continue.';

function at(path: string, state: Partial<SessionState>) {
  cleanup();
  const t = makeSession({ path, state });
  t.seed();
  navigate(path, { replace: true });
  render(
    <SessionProvider session={t.session}>
      <RequireOrg>
        <p>the customers</p>
      </RequireOrg>
      <Toaster />
    </SessionProvider>,
  );
  return t;
}
const path = () => window.location.pathname;

describe('D54 an organization that requires two-step sign-in', () => {
  test('D54 a person without it is sent to /account, with a message saying why, before any organization page', async () => {
    at('/customers', REQUIRING);
    await waitFor(() => expect(path()).toBe(ACCOUNT_PATH));
    expect(screen.queryByText('the customers')).toBeNull();
    expect(await screen.findByText(MESSAGE)).toBeTruthy();
  });

  test('D54 a person with it on, or in an organization that does not require it, goes on', () => {
    at('/customers', { ...REQUIRING, user: { ...USER, mfa_enabled: true } });
    expect(screen.getByText('the customers')).toBeTruthy();
    at('/customers', { ...WITH_ORG, user: { ...USER, mfa_enabled: false } });
    expect(screen.getByText('the customers')).toBeTruthy();
    expect(path()).toBe('/customers');
  });

  test('D54 the account page itself is never held back (no loop when it sits inside the guard)', () => {
    at(ACCOUNT_PATH, REQUIRING);
    expect(screen.getByText('the customers')).toBeTruthy();
    expect(path()).toBe(ACCOUNT_PATH);
  });

  test('D54 an organization call answered 403 mfa_enrolment_required sends the person to /account too', async () => {
    const t = at('/customers', { ...WITH_ORG, user: { ...USER } });
    expect(screen.getByText('the customers')).toBeTruthy();
    t.api.routes.set('/v1/customers/', () => json(403, { detail: 'Acme Plumbing requires two-step sign-in.', code: 'mfa_enrolment_required' }));
    await act(() => t.session.client.get('/v1/customers/').catch(() => undefined));
    await waitFor(() => expect(path()).toBe(ACCOUNT_PATH));
    expect(await screen.findByText(MESSAGE)).toBeTruthy();
  });

  test('D54 once turned on (the account page tells the session) the organization opens', async () => {
    const t = at('/customers', REQUIRING);
    await waitFor(() => expect(path()).toBe(ACCOUNT_PATH));
    await act(() => t.session.markMfa(true));
    navigate('/customers');
    await waitFor(() => expect(screen.getByText('the customers')).toBeTruthy());
    expect(path()).toBe('/customers');
  });
});
