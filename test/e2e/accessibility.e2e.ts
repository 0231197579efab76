// D15, WCAG 2.2 AA as far as a machine can prove it: every screen and state a person can reach, in both
// themes, at desktop, phone and 320 px width (400% zoom of a 1280 px window):
// - axe-core with the WCAG 2.0, 2.1 and 2.2 A and AA rules: no violation;
// - at phone width and at 320 px: no sideways scrolling of the page (1.4.10 Reflow; data tables may
//   scroll inside their own container), no two controls on top of each other, and every control at
//   least 24×24 px or spaced as 2.5.8 Target Size (Minimum) allows (links inside a sentence are exempt);
// - the customers table fits its card at every width from 640 px up (its Tags were cut off), and on a
//   phone its sort buttons show when focused.
// A failure lists each problem with its screen, theme and width. With A11Y_SCREENSHOTS=<dir> the
// phone and 320 px passes also save a screenshot of every screen there, to look at (and the 320 px
// pass runs in the dark theme too).
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ACME, apiAs, type Api, unique } from './api';
import { baseURL, DEMO_PASSWORD, expectPath, launch, signIn, skipReason } from './browser';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const OWNER = 'owner@demo.test';
/** A seeded customer of Acme Plumbing with tags, an address, notes and changes in its timeline. */
const SHOWN_CUSTOMER = { id: 4, name: 'Northwest Print Co.' };
const SHOTS = process.env.A11Y_SCREENSHOTS;

const WIDTHS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
  /** 1280 px at 400% zoom; the height of a landscape phone at 200%. */
  '320': { width: 320, height: 640 },
} as const;
type Width = keyof typeof WIDTHS;
type Theme = 'light' | 'dark';

interface Pass {
  theme: Theme;
  width: Width;
}
const label = (p: Pass, screen: string) => `${screen} · ${p.theme} · ${p.width === '320' ? '320 px' : p.width}`;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** axe-core in the page (evaluated over the DevTools protocol, so the page's CSP does not apply). */
async function axe(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const w = window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: AxeViolation[] }> } };
    const r = await w.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  }, AXE_TAGS);
  return violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n` +
      v.nodes
        .slice(0, 6)
        .map((n) => `      ${n.target.map(String).join(' > ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 220)}` : ''}`)
        .join('\n') +
      (v.nodes.length > 6 ? `\n      … and ${v.nodes.length - 6} more` : ''),
  );
}

/**
 * Reflow, overlap and target size, measured in the page. What a person can reach now: an open dialog
 * or the open drawer covers the rest (a backdrop), so only its controls count then; toasts come and go
 * on top of the page and are left out of the overlap check.
 */
async function layout(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const doc = document.documentElement;
    const vw = doc.clientWidth;
    const describe = (el: Element): string => {
      const name = (el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const cls = el.classList.length ? '.' + [...el.classList].join('.') : '';
      return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${cls}${name ? ` “${name}”` : ''}`;
    };
    /** Hidden from sight on purpose: inside a 1 px box that clips (the sr-only pattern). */
    const visuallyHidden = (el: Element): boolean => {
      for (let a: Element | null = el; a && a !== document.body; a = a.parentElement) {
        const r = a.getBoundingClientRect();
        if (r.width <= 1 && r.height <= 1 && getComputedStyle(a).overflow !== 'visible') return true;
      }
      return false;
    };
    const shown = (el: Element): boolean => {
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
      const r = el.getBoundingClientRect();
      return r.width > 1 && r.height > 1 && !visuallyHidden(el);
    };

    // 1.4.10: the page never scrolls sideways; anything wider than the screen sits in a scroll
    // container of its own that holds a table.
    if (doc.scrollWidth > vw) problems.push(`the page scrolls sideways: ${doc.scrollWidth} px wide in a ${vw} px window`);
    const scrollsX = (el: Element) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
    const clips = (el: Element) => getComputedStyle(el).overflowX !== 'visible';
    const overflowing: Element[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (!shown(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.right <= vw + 0.5 && r.left >= -0.5) continue;
      let a = el.parentElement;
      let allowed = false;
      while (a && a !== document.body) {
        if (scrollsX(a) && a.querySelector('table')) {
          allowed = true;
          break;
        }
        if (clips(a) && a.getBoundingClientRect().right <= vw + 0.5) {
          allowed = true; // cut off on purpose (an ellipsis), inside the screen
          break;
        }
        a = a.parentElement;
      }
      if (!allowed && !overflowing.some((o) => o.contains(el))) overflowing.push(el);
    }
    for (const el of overflowing) {
      const r = el.getBoundingClientRect();
      problems.push(`wider than the screen (${Math.round(r.left)}–${Math.round(r.right)} px of ${vw}): ${describe(el)}`);
    }

    // What a person can reach: the open dialog, else the open drawer, else the page.
    const dialogs = [...document.querySelectorAll('[role=dialog], [role=alertdialog], dialog[open]')].filter(shown);
    const drawer = document.querySelector('.sidebar[data-open]');
    const scope: Element = dialogs.at(-1) ?? drawer ?? document.body;
    const selector =
      'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=tab], [tabindex]:not([tabindex="-1"])';
    const targets = [...scope.querySelectorAll(selector)].filter((el) => shown(el) && !el.closest('[inert], [aria-hidden=true]'));
    const rects = new Map(targets.map((el) => [el, el.getBoundingClientRect()]));
    /** A target's clickable area: a control inside its label (or named by a label) takes the label's box too. */
    const area = (el: Element): DOMRect => {
      const r = rects.get(el)!;
      const lab = el.closest('label') ?? (el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null);
      if (!lab || !(el instanceof HTMLInputElement)) return r;
      const l = lab.getBoundingClientRect();
      return l.width * l.height > r.width * r.height ? l : r;
    };
    /** A link inside a sentence: inline, with text of its own block around it. */
    const inline = (el: Element): boolean => {
      if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
      const block = el.parentElement;
      return !!block && [...block.childNodes].some((n) => n !== el && (n.textContent ?? '').trim().length > 0);
    };

    // No two controls on top of each other (one inside the other is a control and its part).
    const ontop = targets.filter((el) => !el.closest('.toaster'));
    for (let i = 0; i < ontop.length; i++) {
      for (let j = i + 1; j < ontop.length; j++) {
        const a = ontop[i]!;
        const b = ontop[j]!;
        if (a.contains(b) || b.contains(a)) continue;
        const p = rects.get(a)!;
        const q = rects.get(b)!;
        const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
        const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
        if (w > 1 && h > 1) problems.push(`controls overlap by ${Math.round(w)}×${Math.round(h)} px: ${describe(a)} and ${describe(b)}`);
      }
    }

    // 2.5.8: at least 24×24 px, or a 24 px circle on its centre touches no other target nor another
    // small target's circle.
    const small = targets.filter((el) => {
      if (inline(el)) return false;
      const r = area(el);
      return r.width < 23.5 || r.height < 23.5;
    });
    const centre = (r: DOMRect) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
    const distance = (p: { x: number; y: number }, r: DOMRect) => Math.hypot(Math.max(r.left - p.x, 0, p.x - r.right), Math.max(r.top - p.y, 0, p.y - r.bottom));
    for (const el of small) {
      const r = area(el);
      const c = centre(r);
      const crowded = targets.find((o) => {
        if (o === el || o.contains(el) || el.contains(o) || inline(o)) return false;
        const orect = area(o);
        if (distance(c, orect) < 12) return true;
        if (!small.includes(o)) return false;
        const oc = centre(orect);
        return Math.hypot(c.x - oc.x, c.y - oc.y) < 24;
      });
      if (crowded) problems.push(`target ${Math.round(r.width)}×${Math.round(r.height)} px, closer than 24 px to ${describe(crowded)}: ${describe(el)}`);
    }
    return problems;
  });
}

/** Waits until nothing on the page is loading (spinners gone, busy tables settled, fonts ready). */
async function settled(page: Page) {
  await page.waitForFunction(() => !document.querySelector('.spinner, [aria-busy=true], .stat-loading'), undefined, { timeout: 10_000 });
  await page.evaluate(() => document.fonts.ready);
}

interface Screen {
  name: string;
  /** Only at this width (the drawer exists under 1024 px). */
  only?: (w: Width) => boolean;
  show(page: Page): Promise<void>;
  /** Puts back what showing the screen changed in the page (e.g. an intercepted API). */
  after?(page: Page): Promise<void>;
}

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 1 }).waitFor();

/**
 * Goes to `path` inside the app, as its links do (no reload: axe stays loaded, and the pass is faster).
 * A form with unsaved changes asks before leaving, so the screen after one is opened with page.goto; so
 * are the list's error (a fresh page, nothing cached) and the Session Expired dialog (the drawer closed).
 */
const go = (page: Page, path: string) =>
  page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);

describe.skipIf(skipReason)('accessibility', () => {
  let browser: Browser;
  let api: Api;
  const sfx = unique();
  /** Customers this file makes (one to edit in a conflict, one in 'Deleted'); deleted at the end. */
  const made: number[] = [];
  let conflictId = 0;
  /** D46–D48 D50: a do-not-service customer with two locations, a contact and a change to restore. */
  let partsId = 0;
  let inviteToken = '';
  let inviteId = 0;

  beforeAll(async () => {
    browser = await launch();
    api = await apiAs(OWNER);
    const create = async (name: string) => (await api.call<{ id: number }>('POST', '/v1/customers/', { org: ACME, body: { name, city: 'Fresno', tags: ['a11y'] } })).id;
    conflictId = await create(`Jordan Lee ${sfx}`);
    const gone = await create(`Rowan Price ${sfx}`);
    // D48: first by name, so the list's first page shows its 'Do not service' marker.
    const flagged = await api.call<{ id: number }>('POST', '/v1/customers/', {
      org: ACME,
      body: { name: `Aaron Abbott ${sfx}`, city: 'Fresno', do_not_service: true, do_not_service_reason: 'Unpaid invoices' },
    });
    made.push(conflictId, gone, flagged.id);
    await api.call('DELETE', `/v1/customers/${gone}/`, { org: ACME });
    partsId = (
      await api.call<{ id: number }>('POST', '/v1/customers/', {
        org: ACME,
        body: { name: `Dana Wells ${sfx}`, phone: '(415) 555-0111', city: 'Fresno', do_not_service: true, do_not_service_reason: 'Unpaid invoices since March' },
      })
    ).id;
    made.push(partsId);
    const parts = `/v1/customers/${partsId}/`;
    await api.call('POST', `${parts}locations/`, { org: ACME, body: { label: 'Home', address_line: '12 Oak Street', city: 'Portland', region: 'OR' } });
    await api.call('POST', `${parts}locations/`, {
      org: ACME,
      body: { label: 'Rental on Oak St', address_line: '40 Oak St', city: 'Tigard', access_notes: 'Gate code 4321\nDog in the yard' },
    });
    await api.call('POST', `${parts}contacts/`, {
      org: ACME,
      body: { name: 'Pam Ruiz', role: 'property manager', email: `pam.${sfx}@example.test`, phone: '(503) 555-0142', note: 'Calls about leaks' },
    });
    await api.call('PATCH', parts, { org: ACME, body: { version: 1, phone: '(415) 555-0122' } });
    const inv = await api.call<{ id: number; token: string }>('POST', '/v1/team/invitations/', {
      org: ACME,
      body: { email: `a11y.${sfx}@example.test`, role: 'member' },
    });
    inviteToken = inv.token;
    inviteId = inv.id;
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    if (!api) return;
    for (const id of made) await api.call('DELETE', `/v1/customers/${id}/`, { org: ACME }).catch(() => undefined);
    if (inviteId) await api.call('DELETE', `/v1/team/invitations/${inviteId}/`, { org: ACME }).catch(() => undefined);
  });

  const csv = () => ({
    name: `customers-${sfx}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(
      [
        'name,email,phone,status,tags',
        `Avery Stone ${sfx},avery.${sfx}@example.test,(415) 555-0101,lead,import`,
        `Blake Hart ${sfx},not-an-email,,active,`,
        `Casey Lund ${sfx},casey.${sfx}@example.test,12,sleeping,`,
      ].join('\r\n') + '\r\n',
    ),
  });

  /** Signed out: the login form, the public invitation page, a failed login, then the organization picker. */
  const signedOut: Screen[] = [
    { name: 'login', show: async (page) => (await page.goto('/login'), h1(page, 'Login')) },
    { name: 'invitation (public)', show: async (page) => (await page.goto(`/invite/${inviteToken}`), h1(page, 'Join Acme Plumbing')) },
    {
      name: 'login with an error',
      show: async (page) => {
        await signIn(page, `nobody.${unique()}@example.test`, 'not-the-password');
        await page.getByText('Login failed. Check your credentials.').waitFor();
      },
    },
    {
      // D54: the login's code step (the login's 202 given here, so no account needs two-step sign-in).
      name: 'login, the two-step code step',
      show: async (page) => {
        await page.route('**/api/v1/auth/login/', (r) => r.fulfill({ status: 202, json: { mfa_required: true, challenge: 'chl0001abcdefghijklmnop' } }));
        await signIn(page, OWNER);
        await h1(page, 'Two-step sign-in');
      },
      after: async (page) => {
        await page.unrouteAll();
        await page.goto('/login');
        await h1(page, 'Login');
      },
    },
    {
      name: 'organization picker',
      show: async (page) => {
        await page.getByLabel('Email').fill(OWNER);
        await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
        await page.getByRole('button', { name: 'Log In' }).click();
        await h1(page, 'Select Your Organization');
      },
    },
  ];

  /** D54: the account (two-step sign-in off, or on with 3 recovery codes left), its sessions, the setup, its confirmation and a new set, given here. */
  const routeTwoStep = (page: Page, on = false) =>
    page.route(/\/api\/v1\/account\/(sessions\/|mfa\/setup\/|mfa\/confirm\/|mfa\/recovery-codes\/)?$/, (r) => {
      const url = r.request().url();
      if (url.endsWith('/mfa/setup/'))
        return r.fulfill({
          json: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauth_uri: `otpauth://totp/CRM:${OWNER}?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=CRM` },
        });
      if (url.endsWith('/mfa/confirm/') || url.endsWith('/mfa/recovery-codes/'))
        return r.fulfill({ json: { recovery_codes: Array.from({ length: 10 }, (_, i) => `r${i}abc-defgh`) } });
      if (url.endsWith('/sessions/')) return r.fulfill({ json: { results: [] } });
      return r.fulfill({ json: { id: 1, email: OWNER, first_name: 'Olivia', mfa_enabled: on, recovery_codes_left: on ? 3 : null, created_at: '2024-01-02T10:00:00Z' } });
    });

  /** Signed in as the owner of Acme Plumbing (every page is open to them). */
  const signedIn: Screen[] = [
    {
      name: 'dashboard',
      show: async (page) => {
        await page.getByRole('button', { name: 'Acme Plumbing' }).click();
        await expectPath(page, '/dashboard');
        await h1(page, 'Dashboard');
        await page.getByRole('region', { name: 'Customers', exact: true }).getByText(/^\d+$/).waitFor();
      },
    },
    { name: 'customers', show: async (page) => (await go(page, '/customers'), page.getByRole('table').getByText('Do not service').first().waitFor()) },
    { name: 'customers, no match', show: async (page) => (await go(page, `/customers?q=nothing-${sfx}`), page.getByText('No customers match.').waitFor()) },
    {
      name: 'customers, error',
      show: async (page) => {
        await page.route(
          (u) => u.pathname === '/api/v1/customers/',
          (r) => r.fulfill({ status: 503, contentType: 'application/json', body: '{"detail":"Unavailable.","code":"unavailable"}' }),
        );
        await page.goto('/customers');
        await page.getByRole('button', { name: 'Retry' }).waitFor();
      },
      after: (page) => page.unrouteAll(),
    },
    {
      name: "customers, 'Deleted'",
      show: async (page) => (
        await go(page, `/customers?view=deleted&q=${sfx}`),
        page
          .getByRole('table')
          .getByRole('row')
          .filter({ hasText: `Rowan Price ${sfx}` })
          .waitFor()
      ),
    },
    {
      name: 'customer page',
      show: async (page) => {
        await go(page, `/customers/${SHOWN_CUSTOMER.id}`);
        await h1(page, SHOWN_CUSTOMER.name);
        await page.getByRole('region', { name: 'Notes and history' }).getByRole('listitem').first().waitFor();
      },
    },
    {
      name: "'Merge with…' customer search",
      show: async (page) => {
        // Its own start (not the previous screen's page): on a busy machine a click landing while that page
        // still settled was lost.
        await go(page, `/customers/${SHOWN_CUSTOMER.id}`);
        await h1(page, SHOWN_CUSTOMER.name);
        await page.getByRole('button', { name: 'Merge with…' }).click();
        await page.getByRole('searchbox', { name: 'Search customers' }).fill(`Jordan Lee ${sfx}`);
        await page.getByRole('list', { name: 'Customers found' }).waitFor();
      },
      after: (page) => page.keyboard.press('Escape'),
    },
    {
      name: "customer page, the 'Undo this merge?' question",
      // D49: a merge entry of the customer's own, added to its timeline's answer (the merge and its undo are a journey of their own).
      show: async (page) => {
        const entry = {
          kind: 'audit',
          id: 999_999,
          at: new Date().toISOString(),
          actor: { id: null, name: 'Olivia' },
          action: 'customer.merged',
          target: { type: 'customer', id: partsId, label: `Dana Wells ${sfx}` },
          changes: { merge_id: 999_999, merged_customer: { id: conflictId, name: `Jordan Lee ${sfx}` } },
        };
        await page.route(
          (u) => u.pathname === `/api/v1/customers/${partsId}/timeline/`,
          async (r) => {
            const real = (await (await r.fetch()).json()) as { count: number; results: unknown[] };
            await r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ count: real.count + 1, results: [entry, ...real.results] }) });
          },
        );
        await go(page, `/customers/${partsId}`);
        await page.getByRole('button', { name: 'Undo this merge' }).click();
        await page.getByRole('dialog', { name: 'Undo this merge?' }).waitFor();
      },
      after: async (page) => (await page.keyboard.press('Escape'), await page.unrouteAll()),
    },
    {
      name: 'merge screen',
      // D49: the preview answered from the two customers as GET answers them, so this checks the screen
      // whatever the customers hold (the merge itself is a journey of its own).
      show: async (page) => {
        const [survivor, merged] = await Promise.all([SHOWN_CUSTOMER.id, conflictId].map((id) => api.call('GET', `/v1/customers/${id}/`, { org: ACME })));
        const moves = { notes: 3, locations: 1, contacts: 2, tags: ['a11y'] };
        const history = { survivor: { notes: 4, entries: 6 }, merged: { notes: 3, entries: 2 } }; // D66: the survivor is the one proposed
        await page.route(
          (u) => u.pathname === '/api/v1/customers/merge/preview/',
          (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ survivor, merged, moves, history }) }),
        );
        await go(page, `/customers/merge?survivor=${SHOWN_CUSTOMER.id}&merged=${conflictId}`);
        await page.getByRole('heading', { name: 'Values to keep' }).waitFor();
      },
      after: (page) => page.unrouteAll(),
    },
    {
      name: 'customer page with locations, contacts, the do-not-service warning and a value to restore',
      show: async (page) => {
        await go(page, `/customers/${partsId}`);
        await h1(page, `Dana Wells ${sfx}`);
        await page.getByRole('article', { name: 'Rental on Oak St' }).waitFor();
        await page.getByRole('button', { name: /^Restore this value/ }).waitFor();
      },
    },
    {
      name: 'customer page, a location form with an error',
      show: async (page) => {
        await page.getByRole('button', { name: 'Add location' }).click();
        await page.getByRole('form', { name: 'New location' }).getByRole('button', { name: 'Add location' }).click();
        await page.getByText('Give the location an address, or at least a label').waitFor();
        // The focused box scrolled the rows above it under the sticky top bar; the layout is checked from the top.
        await page.evaluate(() => window.scrollTo(0, 0));
      },
    },
    {
      name: 'customer form with field errors',
      show: async (page) => {
        await go(page, '/customers/new');
        await h1(page, 'Add Customer');
        await page.getByRole('form', { name: 'Customer' }).getByLabel('Email', { exact: true }).fill('not-an-email');
        // D48: the flag on, its reason over the limit.
        await page.getByRole('form', { name: 'Customer' }).getByRole('checkbox', { name: 'Do not service' }).check();
        await page.getByRole('form', { name: 'Customer' }).getByLabel('Reason not to service').fill('x'.repeat(501));
        await page.getByRole('form', { name: 'Customer' }).getByRole('button', { name: 'Save' }).click();
        await page.locator('[aria-invalid=true]').first().waitFor();
      },
    },
    {
      name: 'customer form with a conflict',
      show: async (page) => {
        await page.goto(`/customers/${conflictId}/edit`);
        const form = page.getByRole('form', { name: 'Customer' });
        await expect.poll(() => form.getByLabel('Name', { exact: true }).inputValue()).toBe(`Jordan Lee ${sfx}`);
        const { version } = await api.call<{ version: number }>('GET', `/v1/customers/${conflictId}/`, { org: ACME });
        await api.call('PATCH', `/v1/customers/${conflictId}/`, { org: ACME, body: { version, phone: `(415) 555-${String(Math.floor(Math.random() * 9000) + 1000)}` } });
        await form.getByLabel('City', { exact: true }).fill('Modesto');
        await form.getByRole('button', { name: 'Save' }).click();
        await page.getByRole('region', { name: 'Someone else changed this customer' }).waitFor();
      },
    },
    {
      name: 'import preview',
      show: async (page) => {
        await page.goto('/customers/import');
        await page.getByLabel('CSV file').setInputFiles(csv());
        await page.getByRole('heading', { name: 'Preview' }).waitFor();
      },
    },
    {
      name: 'team, invite dialog open',
      show: async (page) => {
        await page.goto('/team');
        await page
          .getByRole('table', { name: /^Members/ })
          .getByRole('row', { name: /Olivia/ })
          .waitFor();
        await page.getByRole('button', { name: 'Invite member' }).click();
        await page.getByRole('dialog', { name: 'Invite member' }).waitFor();
      },
    },
    { name: 'permissions', show: async (page) => (await go(page, '/permissions'), page.getByRole('checkbox', { name: 'member: customers:create' }).waitFor()) },
    {
      name: 'activity',
      show: async (page) => {
        await go(page, '/activity');
        await h1(page, 'Activity');
        await page.getByRole('table').getByRole('row').nth(1).waitFor();
      },
    },
    // D51–D54: the account page, the organization's settings and the public reset page, their data given
    // here (their API is built beside them; the pass checks what the screens look like).
    {
      name: 'my account',
      show: async (page) => {
        await page.route(/\/api\/v1\/account\/(sessions\/)?$/, (r) =>
          r.fulfill({
            json: r.request().url().endsWith('/sessions/')
              ? {
                  results: [
                    {
                      id: 1,
                      browser: 'Chrome 131',
                      system: 'Linux',
                      address: '203.0.113.5',
                      started_at: '2024-05-01T09:00:00Z',
                      last_active_at: '2024-06-01T09:00:00Z',
                      current: true,
                    },
                  ],
                }
              : { id: 1, email: OWNER, first_name: 'Olivia', mfa_enabled: false, created_at: '2024-01-02T10:00:00Z' },
          }),
        );
        await go(page, '/account');
        await page.getByRole('button', { name: /^Sign out Chrome 131/ }).waitFor();
      },
      after: (page) => page.unrouteAll(),
    },
    {
      // D54: the setup step (QR code, key typed out, code) and the recovery codes shown once.
      name: 'two-step sign-in setup',
      show: async (page) => {
        await routeTwoStep(page);
        await go(page, '/account');
        const section = page.getByRole('region', { name: 'Two-step sign-in' });
        await section.getByLabel('Your password').fill(DEMO_PASSWORD);
        await section.getByRole('button', { name: 'Turn on' }).click();
        await page.getByRole('img', { name: 'QR code for two-step sign-in' }).waitFor();
        await page.evaluate(() => window.scrollTo(0, 0)); // the focus moved to the section (D15); checked from the top as every screen
      },
      after: async (page) => {
        await page.getByRole('region', { name: 'Two-step sign-in' }).getByRole('button', { name: 'Cancel' }).click(); // back to off for the next screen
        await page.unrouteAll();
      },
    },
    {
      name: 'two-step sign-in recovery codes',
      show: async (page) => {
        await routeTwoStep(page);
        await go(page, '/account');
        const section = page.getByRole('region', { name: 'Two-step sign-in' });
        await section.getByLabel('Your password').fill(DEMO_PASSWORD);
        await section.getByRole('button', { name: 'Turn on' }).click();
        await section.getByLabel('Enter the 6-digit code the app shows').fill('123456');
        await section.getByRole('button', { name: 'Turn on' }).click();
        await section.getByRole('list', { name: 'Recovery codes' }).waitFor();
        await page.evaluate(() => window.scrollTo(0, 0));
      },
      after: async (page) => {
        await page.getByRole('region', { name: 'Two-step sign-in' }).getByRole('button', { name: 'I have saved them' }).click();
        await page.unrouteAll();
      },
    },
    {
      // D54: on, with the count of recovery codes left, and the password asked for a new set.
      name: 'two-step sign-in on, making new recovery codes',
      show: async (page) => {
        await routeTwoStep(page, true);
        await page.goto('/account'); // a new page: the section starts from the account's answer
        const section = page.getByRole('region', { name: 'Two-step sign-in' });
        await section.getByText('3 recovery codes left.').waitFor();
        await section.getByRole('button', { name: 'Make new recovery codes' }).click();
        await section.getByRole('form', { name: 'Make new recovery codes' }).waitFor();
        await page.evaluate(() => window.scrollTo(0, 0));
      },
      after: (page) => page.unrouteAll(),
    },
    {
      name: 'organization settings',
      show: async (page) => {
        await page.route('**/api/v1/organization/settings/', (r) => r.fulfill({ json: { require_mfa: false } }));
        await go(page, '/settings');
        await page.getByRole('switch', { name: 'Require two-step sign-in for everyone' }).waitFor();
      },
      after: (page) => page.unrouteAll(),
    },
    {
      name: 'reset link (public)',
      show: async (page) => {
        await page.route('**/api/v1/password-resets/**', (r) => r.fulfill({ json: { email: 'mo@example.com', first_name: 'Mo', expires_at: '2099-01-01T00:00:00Z' } }));
        await page.goto('/reset/rst0001abcdefghijklmnopqrstuv');
        await h1(page, 'Set a new password');
      },
      after: (page) => page.unrouteAll(),
    },
    { name: 'forbidden', show: async (page) => (await go(page, '/forbidden'), page.getByText('You do not have permission to view this page.').waitFor()) },
    { name: 'not found', show: async (page) => (await go(page, '/customers/999999'), page.getByText('Customer not found').waitFor()) },
    {
      name: 'drawer open',
      only: (w) => w !== 'desktop',
      show: async (page) => {
        await go(page, '/dashboard');
        await h1(page, 'Dashboard');
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page.getByRole('navigation', { name: 'Main' }).waitFor();
      },
    },
    {
      name: 'Session Expired dialog',
      show: async (page) => {
        await page.goto('/dashboard');
        await h1(page, 'Dashboard');
        await page.evaluate(() => window.dispatchEvent(new Event('sessionExpired')));
        await page.getByRole('dialog', { name: 'Session Expired' }).waitFor();
      },
    },
  ];

  /** Shows every screen in one context of this theme and width, calling `check` on each. */
  async function visitAll(p: Pass, check: (page: Page, screen: string) => Promise<string[]>): Promise<string[]> {
    const context: BrowserContext = await browser.newContext({ baseURL, viewport: WIDTHS[p.width], colorScheme: p.theme, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    const problems: string[] = [];
    try {
      for (const s of [...signedOut, ...signedIn]) {
        if (s.only && !s.only(p.width)) continue;
        await s.show(page);
        await settled(page);
        const dark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
        if (dark !== (p.theme === 'dark')) problems.push(`${label(p, s.name)}: the page is not in the ${p.theme} theme`);
        for (const problem of await check(page, s.name)) problems.push(`${label(p, s.name)}: ${problem}`);
        if (SHOTS && p.width !== 'desktop') {
          await page.screenshot({ path: path.join(SHOTS, `${s.name.replace(/\W+/g, '-').replace(/^-|-$/g, '')}-${p.theme}-${p.width}.png`) });
        }
        await s.after?.(page);
      }
    } finally {
      await context.close();
    }
    expect(pageErrors, 'uncaught errors in the page').toEqual([]);
    return problems;
  }

  const report = (problems: string[]) => (problems.length ? `${problems.length} problem(s):\n  ${problems.join('\n  ')}` : '');

  for (const width of ['desktop', 'phone', '320'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      const layoutToo = width !== 'desktop';
      // At 320 px the layout is the same in both themes (their colours are checked at the other widths):
      // the dark pass there runs only to take its screenshots.
      test.skipIf(width === '320' && theme === 'dark' && !SHOTS)(
        `axe WCAG 2.2 A/AA${layoutToo ? ', reflow, overlap and target size' : ''} on every screen — ${theme}, ${width === '320' ? '320 px' : width}`,
        async () => {
          const problems = await visitAll({ theme, width }, async (page) => [...(await axe(page)), ...(layoutToo ? await layout(page) : [])]);
          expect(report(problems)).toBe('');
        },
      );
    }
  }

  test('the checks find what they look for (a page made to fail each)', async () => {
    const context = await browser.newContext({ viewport: WIDTHS['320'] });
    const page = await context.newPage();
    try {
      await page.setContent(`<!doctype html><html lang="en"><title>Broken</title><body style="margin:0">
        <main>
          <p style="color:#aaa;background:#fff">Pale text</p>
          <button aria-label="Close the panel">Open</button>
          <div style="width:400px">Too wide</div>
          <div style="overflow-x:auto"><table><tr><td style="white-space:nowrap">A table may scroll inside its container, wider than any screen</td></tr></table></div>
          <div style="display:flex;gap:2px"><button style="width:16px;height:16px;padding:0">a</button><button style="width:16px;height:16px;padding:0">b</button></div>
          <div style="position:relative;height:40px"><button style="position:absolute;left:0;width:80px;height:30px">One</button><button style="position:absolute;left:40px;width:80px;height:30px">Two</button></div>
          <p>An <a href="#">inline link</a> in a sentence is exempt.</p>
        </main></body></html>`);
      const found = [...(await axe(page)), ...(await layout(page))].join('\n');
      expect(found).toMatch(/^color-contrast \(serious\)/m);
      expect(found).toMatch(/^label-content-name-mismatch/m);
      expect(found).toMatch(/the page scrolls sideways: 4\d\d px wide in a 320 px window/);
      expect(found).toMatch(/wider than the screen .*: div “Too wide”/);
      expect(found).not.toMatch(/wider than the screen .*: (table|td|div “A table)/);
      expect(found).toMatch(/target 16×16 px, closer than 24 px to button “b”: button “a”/);
      expect(found).toMatch(/controls overlap by 40×30 px: button “One” and button “Two”/);
      expect(found).not.toMatch(/inline link/);
    } finally {
      await context.close();
    }
  });

  test('the customers table fits its card from 640 px up, a row of tags cut at its cell with all of them in its title; on a phone a focused sort button shows', async () => {
    const context = await browser.newContext({ baseURL, viewport: WIDTHS.desktop, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const problems: string[] = [];
    try {
      await signIn(page, OWNER);
      await page.getByRole('button', { name: 'Acme Plumbing' }).click();
      await expectPath(page, '/dashboard');
      await page.goto('/customers');
      await page.getByRole('table').getByRole('row').nth(1).waitFor();
      for (const width of [640, 700, 800, 900, 1000, 1024, 1100, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        // Issue 34 item 11: a row of tags is one line, cut at its cell (all of them in the cell's title).
        const m = await page.evaluate(() => {
          const wrap = document.querySelector('.table-wrap')!;
          const cells = [...document.querySelectorAll<HTMLElement>('.data-table td.cell-tags')];
          const uncut = cells.filter((td) => {
            const over = [...td.querySelectorAll('.tag')].some((t) => t.getBoundingClientRect().right > td.getBoundingClientRect().right + 1);
            return over && (getComputedStyle(td).overflowX !== 'hidden' || !td.title);
          }).length;
          const cellsRight = Math.max(0, ...cells.map((td) => td.getBoundingClientRect().right));
          return { scroll: wrap.scrollWidth, client: wrap.clientWidth, right: wrap.getBoundingClientRect().right, cellsRight, uncut };
        });
        if (m.scroll > m.client) problems.push(`${width} px: the table is ${m.scroll} px wide in a ${m.client} px card`);
        if (m.cellsRight > m.right) problems.push(`${width} px: the tags' cells reach ${Math.round(m.cellsRight)} px, past the card's edge at ${Math.round(m.right)} px`);
        if (m.uncut > 0) problems.push(`${width} px: ${m.uncut} row(s) of tags spill past their cell instead of being cut with a title`);
      }
      // On a phone the header row is out of sight; a sort button reached with Tab shows (2.4.7).
      await page.setViewportSize(WIDTHS.phone);
      const sortByName = page.getByRole('button', { name: 'Name', exact: true });
      await sortByName.focus();
      const inSight = () =>
        sortByName.evaluate((b) => {
          b.scrollIntoView({ block: 'center' });
          const r = b.getBoundingClientRect();
          const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); // nothing clipping or covering it
          return !!at && b.contains(at) && r.width >= 24 && r.height >= 24;
        });
      // The sidebar turns into the drawer at this width and slides away: a few tries, 100 ms apart.
      let seen = await inSight();
      for (let i = 0; i < 20 && !seen; i++) seen = (await page.waitForTimeout(100), await inSight());
      if (!seen) problems.push(`390 px: the focused 'Name' sort button is out of sight`);
    } finally {
      await context.close();
    }
    expect(report(problems)).toBe('');
  });
});
