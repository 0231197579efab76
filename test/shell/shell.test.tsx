import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import { navigate } from '../../src/router/location';
import { NAV } from '../../src/shell/nav';
import { collapsedSections } from '../../src/shell/sections';
import Shell from '../../src/shell/Shell';
import { BEACON } from '../helpers/fake-api';
import { renderWithSession } from '../helpers/render';
import { pageSession, WITH_ORG, type TestSession } from '../helpers/session';

beforeEach(() => {
  collapsedSections.setState(new Set());
  navigate('/dashboard', { replace: true });
});
afterEach(() => {
  document.documentElement.classList.remove('dark');
  localStorage.clear();
});

function show(t: TestSession = pageSession({ state: WITH_ORG }), title = 'Dashboard') {
  renderWithSession(
    t,
    <Shell title={title}>
      <p>page body</p>
    </Shell>,
  );
  return t;
}
const sidebar = () => screen.getByRole('complementary', { name: 'Sidebar' });
const nav = () => screen.getByRole('navigation', { name: 'Main' });
const menuButton = () => screen.getByRole('button', { name: 'Open menu' });

describe('sidebar', () => {
  it('SPEC §2 the sidebar shows the organization logo and name', () => {
    show();
    const side = sidebar();
    expect(within(side).getByText('Acme Plumbing')).toBeTruthy();
    expect(side.querySelector('img')?.getAttribute('src')).toBe('/logos/acme.svg');
  });

  it('SPEC §2 an organization without a logo shows two-letter initials', () => {
    show(pageSession({ state: { ...WITH_ORG, currentOrg: BEACON } }));
    expect(sidebar().querySelector('img')).toBeNull();
    expect(within(sidebar()).getByText('BE')).toBeTruthy();
    expect(within(sidebar()).getByText('Beacon Electric')).toBeTruthy();
  });

  it('SPEC §2 the sidebar links and sections: Dashboard; Communication: SMS, Email, Calls; CRM: Customers, Jobs; Admin: Team, Permissions, Activity (D10)', () => {
    show();
    const links = within(nav())
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Dashboard', '/dashboard'],
      ['SMS', '/sms'],
      ['Email', '/email'],
      ['Calls', '/calls'],
      ['Customers', '/customers'],
      ['Jobs', '/jobs'],
      ['Team', '/team'],
      ['Permissions', '/permissions'],
      ['Activity', '/activity'],
      ['Settings', '/settings'], // D54: an owner's (WITH_ORG is Acme's owner)
      ['Custom fields', '/settings/fields'], // D56 D61: with fields:manage
    ]);
    for (const name of ['Communication', 'CRM', 'Admin']) expect(within(nav()).getByRole('button', { name })).toBeTruthy();
    expect(NAV.flatMap((s) => s.links.map((l) => l.permission))).toEqual([
      'dashboard:view',
      'sms:view',
      'email:view',
      'calls:view',
      'customers:view',
      'jobs:view',
      'team:view',
      'permissions:view',
      'audit:view',
      undefined,
      'fields:manage',
    ]);
  });

  it('D9 the sidebar hides links the user may not open, and sections left empty', () => {
    show(pageSession({ state: { ...WITH_ORG, role: 'viewer', permissions: ['dashboard:view', 'customers:view'] } }));
    expect(
      within(nav())
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Dashboard', 'Customers']);
    expect(within(nav()).queryByRole('button', { name: 'Communication' })).toBeNull();
    expect(within(nav()).queryByRole('button', { name: 'Admin' })).toBeNull();
    expect(within(nav()).getByRole('button', { name: 'CRM' })).toBeTruthy();
  });

  it('the active link is marked with aria-current="page", also on its sub-pages', () => {
    navigate('/customers/12');
    show();
    expect(within(nav()).getByRole('link', { name: 'Customers' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav()).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBeNull();
  });

  it('D56 on a page under another link only the deepest link is marked: /settings/fields marks Custom fields, not Settings', () => {
    navigate('/settings/fields');
    show();
    expect(within(nav()).getByRole('link', { name: 'Custom fields' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav()).getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBeNull();
  });

  it('SPEC §2 sections collapse and expand, and stay as left while the app runs', () => {
    const t = show();
    const toggle = within(nav()).getByRole('button', { name: 'Communication' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(nav()).queryByRole('link', { name: 'SMS', hidden: false })).toBeNull();
    expect(within(nav()).getByRole('link', { name: 'Customers' })).toBeTruthy();
    // Leaving and coming back (the shell remounts) keeps the section collapsed.
    cleanup();
    show(t);
    const again = within(nav()).getByRole('button', { name: 'Communication' });
    expect(again.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(again);
    expect(within(nav()).getByRole('link', { name: 'SMS' })).toBeTruthy();
  });
});

describe('drawer (under 1024px)', () => {
  it('SPEC §2 the menu button opens the drawer and D15 moves focus into it', () => {
    show();
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(menuButton());
    expect(menuButton().getAttribute('aria-expanded')).toBe('true');
    expect(sidebar().hasAttribute('data-open')).toBe(true);
    expect(sidebar().contains(document.activeElement)).toBe(true);
  });

  it('SPEC §2 Escape closes the drawer and D15 focus returns to the menu button', () => {
    show();
    menuButton().focus();
    fireEvent.click(menuButton());
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(sidebar().hasAttribute('data-open')).toBe(false);
    expect(document.activeElement).toBe(menuButton());
  });

  it('SPEC §2 choosing a link closes the drawer, navigates, and the drawer gives the focus back to the menu button (the new page’s h1 takes it once shown: test/e2e/shell.e2e.ts)', () => {
    show();
    fireEvent.click(menuButton());
    fireEvent.click(within(nav()).getByRole('link', { name: 'Customers' }));
    expect(window.location.pathname).toBe('/customers');
    expect(sidebar().hasAttribute('data-open')).toBe(false);
    expect(document.activeElement).toBe(menuButton());
  });

  it('the close button and the backdrop close the drawer', () => {
    show();
    fireEvent.click(menuButton());
    fireEvent.click(within(sidebar()).getByRole('button', { name: 'Close menu' }));
    expect(sidebar().hasAttribute('data-open')).toBe(false);
    fireEvent.click(menuButton());
    fireEvent.click(document.querySelector('.drawer-backdrop')!);
    expect(sidebar().hasAttribute('data-open')).toBe(false);
  });

  it('D15 the open drawer traps focus: Tab from its last control wraps to its first', () => {
    show();
    fireEvent.click(menuButton());
    const controls = [...sidebar().querySelectorAll<HTMLElement>('a[href],button')];
    const first = controls[0]!;
    const last = controls[controls.length - 1]!;
    last.focus();
    fireEvent.keyDown(last, { key: 'Tab' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
    expect(document.querySelector('.shell-main')?.hasAttribute('inert')).toBe(true);
  });
});

describe('top bar', () => {
  it('SPEC §2 the top bar shows the page title, and the document title follows it', () => {
    show(undefined, 'Customers');
    expect(within(screen.getByRole('banner')).getByText('Customers')).toBeTruthy();
    expect(document.title).toBe('Customers · CRM');
  });

  it('SPEC §4 the dark-mode toggle switches the theme and D11 stores it; its name says what it will do', () => {
    show();
    fireEvent.click(screen.getByRole('button', { name: 'Switch to dark mode' }));
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(localStorage.getItem('theme')).toBe('dark');
    fireEvent.click(screen.getByRole('button', { name: 'Switch to light mode' }));
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(localStorage.getItem('theme')).toBe('light');
  });

  it("D11 a dark theme at start names the toggle 'Switch to light mode'", () => {
    document.documentElement.classList.add('dark');
    show();
    expect(screen.getByRole('button', { name: 'Switch to light mode' })).toBeTruthy();
  });
});

describe('user menu', () => {
  const open = () => fireEvent.click(screen.getByRole('button', { name: 'owner@demo.test' }));

  it("SPEC §2 the user menu shows 'Signed in as' the email, the current organization and the user's organizations", () => {
    show();
    const button = screen.getByRole('button', { name: 'owner@demo.test' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.getElementById(button.getAttribute('aria-controls')!)!.hidden).toBe(true);
    open();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const panel = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(panel.hidden).toBe(false); // role queries here find hidden elements too (test/setup.ts)
    expect(within(panel).getByText('Signed in as')).toBeTruthy();
    expect(within(panel).getByText('owner@demo.test')).toBeTruthy();
    expect(within(panel).getByText('Current organization').nextElementSibling?.textContent).toBe('Acme Plumbing');
    const orgs = within(panel).getByRole('list', { name: 'Your organizations' });
    expect(within(orgs).getAllByRole('button')).toHaveLength(2);
    expect(within(orgs).getByRole('button', { name: 'Acme Plumbing' }).getAttribute('aria-current')).toBe('true');
    expect(within(orgs).getByRole('button', { name: 'Beacon Electric' }).getAttribute('aria-current')).toBeNull();
    expect(within(panel).getByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it('SPEC §2 choosing another organization sets it as current and reloads the app at /dashboard', () => {
    const t = show();
    open();
    fireEvent.click(screen.getByRole('button', { name: /Beacon Electric/ }));
    expect(t.kv.map.get('current_org_id')).toBe('2');
    expect(t.assign).toHaveBeenCalledWith('/dashboard');
  });

  it('choosing the current organization just closes the menu', () => {
    const t = show();
    open();
    fireEvent.click(screen.getByRole('button', { name: /Acme Plumbing/ }));
    expect(t.assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'owner@demo.test' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('SPEC §4 Logout signs out and goes to /login', async () => {
    const t = show();
    t.kv.map.set('access_token', 'x.y.z');
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    // Logout waits for the server's answer: a wait, not one act.
    await waitFor(() => expect(t.navigate).toHaveBeenCalledWith('/login', { replace: true }));
    expect(t.kv.map.has('access_token')).toBe(false);
    expect(t.session.store.getState().isAuthenticated).toBe(false);
  });

  it('D15 Escape closes the user menu and returns focus to its button', () => {
    show();
    open();
    fireEvent.keyDown(screen.getByRole('button', { name: 'Logout' }), { key: 'Escape' });
    const button = screen.getByRole('button', { name: 'owner@demo.test' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it('a click outside closes the user menu', () => {
    show();
    open();
    fireEvent.pointerDown(screen.getByText('page body'));
    expect(screen.getByRole('button', { name: 'owner@demo.test' }).getAttribute('aria-expanded')).toBe('false');
  });
});
