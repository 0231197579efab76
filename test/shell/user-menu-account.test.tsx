// D51 the user menu's 'My account', and the session's user after the account page saves a new name
// or email: the menu's button and 'Signed in as' show the new value.
import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import { navigate } from '../../src/router/location';
import Shell from '../../src/shell/Shell';
import { renderWithSession } from '../helpers/render';
import { pageSession, WITH_ORG } from '../helpers/session';

beforeEach(() => navigate('/dashboard', { replace: true }));

describe('D51 user menu', () => {
  it('D51 "My account" in the user menu opens /account and closes the menu', () => {
    renderWithSession(pageSession({ state: WITH_ORG }), <Shell title="Dashboard">body</Shell>);
    const button = screen.getByRole('button', { name: /owner@demo\.test/ });
    fireEvent.click(button);
    const link = screen.getByRole('link', { name: 'My account' });
    expect(link.getAttribute('href')).toBe('/account');
    fireEvent.click(link);
    expect(window.location.pathname).toBe('/account');
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('D51 a saved email or name shows in the menu at once (session.updateUser)', () => {
    const t = pageSession({ state: WITH_ORG });
    renderWithSession(t, <Shell title="Dashboard">body</Shell>);
    act(() => t.session.updateUser({ email: 'olive@example.com', first_name: 'Zoe' }));
    const button = screen.getByRole('button', { name: /olive@example\.com/ });
    expect(button.textContent).toContain('Z');
    expect(t.session.store.getState().user).toEqual({ email: 'olive@example.com', first_name: 'Zoe', avatar_url: null });
  });
});
