// D53 'Forgot password?' on the login screen: a disclosure (keyboard- and screen-reader-operable as
// <details>) saying to ask an owner or admin for a reset link; the login form itself is unchanged.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '../ui/no-console';
import LoginPage, { MSG_FORGOT_PASSWORD } from '../../src/pages/login/LoginPage';
import { renderWithSession } from '../helpers/render';
import { pageSession, SIGNED_OUT } from '../helpers/session';

describe('D53 login: Forgot password?', () => {
  it('D53 a closed disclosure under Log In; opened, it says to ask an owner or admin for a reset link', () => {
    renderWithSession(pageSession({ state: SIGNED_OUT }), <LoginPage />);
    const summary = screen.getByText('Forgot password?');
    const details = summary.closest('details')!;
    expect(details.open).toBe(false);
    expect(details.textContent).toContain(MSG_FORGOT_PASSWORD);
    expect(MSG_FORGOT_PASSWORD).toMatch(/owner or admin/);
    expect(MSG_FORGOT_PASSWORD).toMatch(/reset link/);
    expect(summary.tagName).toBe('SUMMARY'); // the browser opens it on a click, Enter or Space
    // It is not a button of the form: Log In stays the one submit button.
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Log In']);
  });
});
