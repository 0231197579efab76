// D15 keyboard journeys: a person who uses only the keyboard (Tab, Shift+Tab, Enter, Space, Escape,
// Alt+T) signs in, picks an organization, creates a customer (fixing a field error), adds a note,
// deletes the customer and takes it back with the toast's Undo, invites a member and copies the link,
// and changes a permission. No mouse and no filling of fields by the test: it presses keys and reads
// the page to see where the focus is. At every stop the focused element must show a focus ring; after
// a route change the focus is on the new page's heading and the new title is announced; after a
// failed save it is on the first invalid field; after a dialog closes it is back on its opener.
// What the journey made is put back through the API in finally blocks.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ACME, apiAs, deleteCustomersMatching, matrixOf, putMatrix, revokeInvitations, unique, type Api } from './api';
import { baseURL, DEMO_PASSWORD, skipReason, useBrowser } from './browser';

const OWNER = 'owner@demo.test';
const WAIT_MS = 15_000;

/** What the focused element is, as the test can tell from the page. */
interface Focus {
  tag: string;
  /** Its accessible name, as near as the page's own markup tells it (aria-label, label, text). */
  name: string;
  type: string | null;
  /** The named landmark or dialog it is in: 'nav:Main', 'dialog:Invite member', 'region:Notifications (Alt+T)'. */
  within: string[];
  invalid: string | null;
  /** The text of the elements its aria-describedby names. */
  description: string;
  ariaDisabled: string | null;
  /** D15: a visible focus indicator: it matches :focus-visible and has (or is inside) a drawn outline. */
  ring: boolean;
}

/** The focused element, or null when the focus is on the page itself. Runs in the page. */
function readFocus(): Focus | null {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body || el === document.documentElement) return null;
  const text = (ids: string | null) =>
    (ids ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
  const tidy = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
  const nameOf = (e: Element): string => {
    const label = e.id ? document.querySelector(`label[for="${CSS.escape(e.id)}"]`) : null;
    return tidy(e.getAttribute('aria-label') || text(e.getAttribute('aria-labelledby')) || label?.textContent || e.closest('label')?.textContent || e.textContent);
  };
  const within: string[] = [];
  for (let a = el.parentElement; a; a = a.parentElement) {
    const role = a.getAttribute('role') ?? { NAV: 'nav', SECTION: 'region', ASIDE: 'complementary', MAIN: 'main' }[a.tagName];
    if (role && (a.hasAttribute('aria-label') || a.hasAttribute('aria-labelledby'))) within.push(`${role}:${nameOf(a)}`);
  }
  if (el.tagName === 'SECTION' && el.hasAttribute('aria-label')) within.unshift(`region:${nameOf(el)}`);
  const drawn = (e: Element) => {
    const s = getComputedStyle(e);
    return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1 && s.outlineColor !== 'rgba(0, 0, 0, 0)';
  };
  let ring = drawn(el);
  for (let a = el.parentElement, i = 0; !ring && a && i < 3; a = a.parentElement, i++) ring = a.matches(':focus-within') && drawn(a);
  const box = el.getBoundingClientRect();
  return {
    tag: el.tagName,
    name: nameOf(el),
    type: el.getAttribute('type'),
    within,
    invalid: el.getAttribute('aria-invalid'),
    description: tidy(text(el.getAttribute('aria-describedby'))),
    ariaDisabled: el.getAttribute('aria-disabled'),
    // A date's calendar button, inside it, leaves the input only :focus-within; its ring is drawn then too.
    ring: ring && (el.matches(':focus-visible') || (el.getAttribute('type') === 'date' && el.matches(':focus-within'))) && box.width > 0 && box.height > 0,
  };
}

const focusOf = (page: Page) => page.evaluate(readFocus);
const show = (f: Focus | null) => (f ? `${f.tag.toLowerCase()} "${f.name}"${f.within.length ? ` in ${f.within[0]}` : ''}` : 'the page (nothing focused)');

/** D15: the focus is on an element, and it shows a focus indicator. */
function expectVisible(f: Focus | null): asserts f is Focus {
  expect(f, 'something has the focus').not.toBeNull();
  expect(f!.ring, `a visible focus indicator on ${show(f)}`).toBe(true);
}

/**
 * Presses Tab (or Shift+Tab) until the focused element matches, at most `max` times; every stop on the
 * way must show its focus. Fails naming the stops it passed.
 */
async function tabTo(page: Page, want: (f: Focus) => boolean, what: string, { back = false, max = 60 } = {}): Promise<Focus> {
  const passed: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const f = await focusOf(page);
    if (f) expectVisible(f); // nothing focused happens once, between the page's last control and its first
    if (f && want(f)) return f;
    passed.push(show(f));
  }
  throw new Error(`${what}: not reached in ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}; passed ${passed.join(' → ')}`);
}

const named = (name: string | RegExp, tag?: string) => (f: Focus) =>
  (tag === undefined || f.tag === tag) && (typeof name === 'string' ? f.name === name : name.test(f.name));
const inside = (scope: string, want: (f: Focus) => boolean) => (f: Focus) => f.within.includes(scope) && want(f);

/** Waits (polling the page) until the focused element matches; returns it. */
async function focusLandsOn(page: Page, want: (f: Focus) => boolean, what: string): Promise<Focus> {
  let last: Focus | null = null;
  await expect
    .poll(
      async () => {
        last = await focusOf(page);
        return last !== null && want(last);
      },
      { timeout: WAIT_MS, message: `the focus lands on ${what}` },
    )
    .toBe(true)
    .catch((e: unknown) => {
      throw new Error(`${(e as Error).message}; it is on ${show(last)}`);
    });
  expectVisible(last);
  return last!;
}

/** What a field said at the moment it took the focus (when a screen reader reads it). */
interface OnFocus {
  invalid: string | null;
  description: string;
}
type FocusLog = { keyboardFocusLog?: OnFocus[] };

/** Starts noting, at each focus, the focused element's aria-invalid and described text (once per page load). */
const noteFocus = (page: Page) =>
  page.evaluate(() => {
    const log: OnFocus[] = ((window as FocusLog).keyboardFocusLog = []);
    document.addEventListener(
      'focusin',
      (e) => {
        const el = e.target as HTMLElement;
        const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
        const description = ids
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
          .replace(/\s+/g, ' ')
          .trim();
        log.push({ invalid: el.getAttribute('aria-invalid'), description });
      },
      true,
    );
  });
/** D15: the invalid field already carried its error when it took the focus (not only a moment later). */
async function saidWhenFocused(page: Page, error: string | ReturnType<typeof expect.stringContaining>) {
  const last = await page.evaluate(() => (window as FocusLog).keyboardFocusLog?.at(-1) ?? null);
  expect(last, 'what the field said as it took the focus').toEqual({ invalid: 'true', description: error });
}

const announced = (page: Page) => page.evaluate(() => (document.getElementById('route-announcer')?.textContent ?? '').replace(/\u00a0/g, '').trim());

/**
 * D15 after a route change: the URL, the focus on the new page's h1 (named `heading`), the document
 * title, and the same title said by the polite route announcer.
 */
async function arrivedAt(page: Page, path: string | RegExp, heading: string, title: string) {
  await page.waitForURL((u) => (typeof path === 'string' ? u.pathname === path : path.test(u.pathname)), { timeout: WAIT_MS });
  await focusLandsOn(page, named(heading, 'H1'), `the h1 '${heading}'`);
  expect(await page.title()).toBe(title);
  await expect.poll(() => announced(page), { timeout: WAIT_MS }).toBe(title);
  expect(await page.evaluate(() => document.getElementById('route-announcer')?.getAttribute('aria-live'))).toBe('polite');
}

/** Waits until a toast with this text shows (reading the page, not touching it). */
const toastShows = (page: Page, text: string) => page.getByRole('region', { name: 'Notifications (Alt+T)' }).getByText(text).first().waitFor({ timeout: WAIT_MS });

const navLink = (label: string) => inside('nav:Main', named(label, 'A'));
const TOASTS = 'region:Notifications (Alt+T)';

describe.skipIf(skipReason)('D15 keyboard only', () => {
  const browser = useBrowser();
  let ownerApi: Promise<Api> | undefined;
  const housekeeping = () => (ownerApi ??= apiAs(OWNER));

  test('D15 with the keyboard alone the owner signs in, picks an organization, creates a customer after fixing field errors, adds a note, deletes it and undoes from the toast, invites a member and copies the link, and changes a permission; the focus is always visible and lands where expected', async () => {
    const sfx = unique();
    const name = `Keyes Tabor ${sfx}`;
    const invitee = `keys.${sfx}@example.test`;
    const api = await housekeeping();
    const matrixBefore = await matrixOf(api, ACME);
    const { page } = await browser.open();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    const kb = page.keyboard;
    try {
      // Sign in. An empty form sends nothing and takes the person to the first field to fill.
      await page.goto('/login');
      await page.getByRole('heading', { name: 'Login', level: 1 }).waitFor();
      await noteFocus(page);
      expect(await page.title()).toBe('Login · CRM');
      await tabTo(page, named('Log In', 'BUTTON'), "'Log In'");
      await kb.press('Enter');
      let f = await focusLandsOn(page, named('Email', 'INPUT'), 'the Email field');
      expect(f.invalid).toBe('true');
      expect(f.description).toBe('Email is required');
      await saidWhenFocused(page, 'Email is required');
      await kb.type(OWNER);
      await tabTo(page, named('Password', 'INPUT'), 'the Password field');
      await kb.type(DEMO_PASSWORD);
      await kb.press('Enter');

      // Pick an organization.
      await arrivedAt(page, '/org-picker', 'Select Your Organization', 'Select Your Organization · CRM');
      await tabTo(page, named(/Acme Plumbing/, 'BUTTON'), "the 'Acme Plumbing' choice");
      await kb.press('Space');
      await arrivedAt(page, '/dashboard', 'Dashboard', 'Dashboard · CRM');

      // To the customers, and 'Add Customer'.
      await tabTo(page, navLink('Customers'), "the sidebar's 'Customers'", { back: true });
      await kb.press('Enter');
      await arrivedAt(page, '/customers', 'Customers', 'Customers · CRM');
      await tabTo(page, named('Add Customer', 'A'), "'Add Customer'");
      await kb.press('Enter');
      await arrivedAt(page, '/customers/new', 'Add Customer', 'Add Customer · CRM');

      // A save with two problems lands on the first (Name), then on the one left (Email).
      await tabTo(page, named('Email', 'INPUT'), 'the Email field');
      await kb.type('not-an-email');
      await tabTo(page, named('Save', 'BUTTON'), "'Save'");
      await kb.press('Enter');
      f = await focusLandsOn(page, named('Name', 'INPUT'), 'the Name field, the first invalid one');
      expect(f.invalid).toBe('true');
      expect(f.description).toBe('Name is required');
      await saidWhenFocused(page, 'Name is required');
      await kb.type(name);
      await tabTo(page, named('Save', 'BUTTON'), "'Save'");
      await kb.press('Enter');
      f = await focusLandsOn(page, named('Email', 'INPUT'), 'the Email field, the invalid one left');
      expect(f.invalid).toBe('true');
      expect(f.description).toBe('Enter an email address like name@example.com');
      await saidWhenFocused(page, 'Enter an email address like name@example.com');
      await kb.press('ControlOrMeta+A');
      await kb.type(`keyes.${sfx}@example.test`);
      await tabTo(page, named('Save', 'BUTTON'), "'Save'");
      await kb.press('Enter');
      await toastShows(page, 'Customer saved');
      await arrivedAt(page, /^\/customers\/\d+$/, name, 'Customer Dashboard · CRM');
      const customerId = Number(new URL(page.url()).pathname.split('/')[2]);

      // A note: sent empty, it takes the person back to its text; then it is added, and the focus stays.
      await tabTo(page, named('Add a note', 'TEXTAREA'), "the 'Add a note' field");
      await tabTo(page, named('Add note', 'BUTTON'), "'Add note'");
      await kb.press('Enter');
      f = await focusLandsOn(page, named('Add a note', 'TEXTAREA'), "the empty note's text");
      expect(f.invalid).toBe('true');
      expect(f.description).toContain('Write something first.');
      await saidWhenFocused(page, expect.stringContaining('Write something first.'));
      await kb.type(`Gate code 4412, ${sfx}`);
      await tabTo(page, named('Add note', 'BUTTON'), "'Add note'");
      await kb.press('Enter');
      await toastShows(page, 'Note added');
      await page.getByRole('region', { name: 'Notes and history' }).getByText(`Gate code 4412, ${sfx}`).waitFor({ timeout: WAIT_MS });
      await focusLandsOn(page, named('Add note', 'BUTTON'), "'Add note' (the focus stays where it was)");

      // Delete: the dialog opens on Cancel; Escape closes it and the focus is back on 'Delete'.
      await tabTo(page, named('Delete', 'BUTTON'), "the customer's 'Delete'", { back: true });
      await kb.press('Enter');
      const dialog = `dialog:Delete ${name}?`;
      await focusLandsOn(page, inside(dialog, named('Cancel', 'BUTTON')), "the dialog's Cancel");
      await kb.press('Escape');
      await focusLandsOn(page, named('Delete', 'BUTTON'), "'Delete' again (the dialog's opener)");
      expect(await page.getByRole('dialog').count()).toBe(0);
      // Tab stays inside the open dialog: Cancel → 'Delete customer' → Cancel.
      await kb.press('Enter');
      await focusLandsOn(page, inside(dialog, named('Cancel', 'BUTTON')), "the dialog's Cancel");
      await kb.press('Tab');
      await focusLandsOn(page, inside(dialog, named('Delete customer', 'BUTTON')), "the dialog's 'Delete customer'");
      await kb.press('Tab');
      await focusLandsOn(page, inside(dialog, named('Cancel', 'BUTTON')), "the dialog's Cancel (Tab wraps inside the dialog)");
      await kb.press('Shift+Tab');
      await focusLandsOn(page, inside(dialog, named('Delete customer', 'BUTTON')), "the dialog's 'Delete customer'");
      await kb.press('Enter');
      await Promise.all([arrivedAt(page, '/customers', 'Customers', 'Customers · CRM'), toastShows(page, `${name} deleted`)]);

      // D25 Undo, by keyboard: Alt+T takes the person to the toasts, Tab to Undo.
      await kb.press('Alt+KeyT');
      f = await focusLandsOn(page, (x) => x.tag === 'SECTION' && x.name === 'Notifications (Alt+T)', 'the notifications (Alt+T)');
      await tabTo(page, inside(TOASTS, named('Undo', 'BUTTON')), "the toast's Undo", { max: 12 });
      await kb.press('Enter');
      await toastShows(page, `${name} restored`);
      // The toast with Undo is gone; the focus is not lost: it is on the notifications again.
      await focusLandsOn(page, (x) => x.tag === 'SECTION' && x.name === 'Notifications (Alt+T)', 'the notifications, after Undo');
      expect(await api.call<{ id: number }>('GET', `/v1/customers/${customerId}/`, { org: ACME })).toMatchObject({ id: customerId });

      // Invite a member: Tab on from the notifications comes round to the sidebar.
      await tabTo(page, navLink('Team'), "the sidebar's 'Team'");
      await kb.press('Enter');
      await arrivedAt(page, '/team', 'Team', 'Team · CRM');
      await tabTo(page, named('Invite member', 'BUTTON'), "'Invite member'");
      await kb.press('Enter');
      await focusLandsOn(page, inside('dialog:Invite member', named('Email', 'INPUT')), "the invitation's Email");
      await kb.type(invitee);
      f = await tabTo(page, named('Role', 'SELECT'), "the invitation's Role");
      expect(f.within).toContain('dialog:Invite member');
      await tabTo(page, inside('dialog:Invite member', named('Create invitation link', 'BUTTON')), "'Create invitation link'");
      await kb.press('Enter');
      await toastShows(page, `Invitation created for ${invitee}`);
      await focusLandsOn(page, inside('dialog:Invitation link', named('Copy', 'BUTTON')), "the link dialog's Copy");
      await kb.press('Enter');
      await page.getByRole('dialog', { name: 'Invitation link' }).getByText('Link copied').waitFor({ timeout: WAIT_MS });
      const shown = await page.getByRole('dialog', { name: 'Invitation link' }).getByRole('textbox', { name: 'Invitation link' }).inputValue();
      expect(new URL(shown).pathname).toMatch(/^\/invite\/[\w-]{20,}$/);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
      await tabTo(page, inside('dialog:Invitation link', named('Done', 'BUTTON')), "the link dialog's Done", { max: 5 });
      await kb.press('Enter');
      await focusLandsOn(page, named('Invite member', 'BUTTON'), "'Invite member' again (where the dialogs started)");
      expect(await page.getByRole('dialog').count()).toBe(0);

      // Change a permission and save; the focus stays on Save (now off until the next change).
      await tabTo(page, navLink('Permissions'), "the sidebar's 'Permissions'", { back: true });
      await kb.press('Enter');
      await arrivedAt(page, '/permissions', 'Permissions', 'Permissions · CRM');
      const box = 'member: customers:delete';
      const wasOn = matrixBefore.member?.includes('customers:delete') ?? false;
      await tabTo(page, named(box, 'INPUT'), `the box '${box}'`);
      await kb.press('Space');
      await expect.poll(() => page.getByRole('checkbox', { name: box }).isChecked()).toBe(!wasOn);
      await page.getByText('You have unsaved changes.').waitFor();
      f = await tabTo(page, named('Save', 'BUTTON'), "the matrix's Save", { back: true });
      expect(f.ariaDisabled).toBeNull();
      await kb.press('Enter');
      await toastShows(page, 'Permissions saved');
      await page.getByText('You have unsaved changes.').waitFor({ state: 'detached' });
      f = await focusLandsOn(page, named('Save', 'BUTTON'), 'Save (after saving)');
      expect(f.ariaDisabled).toBe('true');
      expect((await matrixOf(api, ACME)).member?.includes('customers:delete')).toBe(!wasOn);
    } finally {
      await putMatrix(api, ACME, matrixBefore);
      await revokeInvitations(api, ACME, [invitee]);
      await deleteCustomersMatching(api, ACME, sfx);
    }
  }, 180_000);
});
