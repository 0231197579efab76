// Team journeys: inviting a new person who signs up from the link (D28), their role changed and their
// membership removed as their open tab sees it (D28), the permission matrix taken from and given back
// to a role (D29), the activity log of all that (D30), and the owner rules: an admin cannot demote the
// owner, the last owner cannot leave (D28). The first journeys follow one invited person; run alone, a
// later journey invites its own through the API. Shared demo accounts and the matrix are put back in
// finally blocks, and every person a journey adds is removed again.
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { acceptInvitation, ACME, apiAs, ApiError, matrixOf, memberByEmail, putMatrix, removeMember, revokeInvitations, unique, type Api, type Matrix } from './api';
import { expectPath, sidebarNav, skipReason, storage, toasts, useBrowser } from './browser';

const OWNER = 'owner@demo.test';

interface Person {
  email: string;
  first: string;
  password: string;
}

/** What the journeys did to the invited person and the matrix, for the activity journey to find. */
const happened = { invited: false, roleChanged: false, removed: false, permissionsChanged: false };
let person: Person | null = null;

const newPerson = (name: string): Person => {
  const sfx = unique();
  return { email: `${name.toLowerCase()}.${sfx}@example.test`, first: `${name}-${sfx}`, password: `long enough ${sfx} secret` };
};

/** The owner's team page: 'Invite member', the link shown once; resolves to the link's path. */
async function inviteThroughPage(page: Page, email: string, role: string): Promise<string> {
  await page.getByRole('button', { name: 'Invite member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite member' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Role').selectOption(role);
  await dialog.getByRole('button', { name: 'Create invitation link' }).click();
  await toasts(page).getByText(`Invitation created for ${email}`).waitFor();
  const shown = page.getByRole('dialog', { name: 'Invitation link' });
  const link = await shown.getByRole('textbox', { name: 'Invitation link' }).inputValue();
  await shown.getByRole('button', { name: 'Done' }).click();
  const url = new URL(link);
  expect(url.pathname).toMatch(/^\/invite\/[\w-]{20,}$/);
  return url.pathname;
}

/** A new person opens the link signed out, creates an account and lands on the dashboard. */
async function joinThroughLink(page: Page, path: string, who: Person, org = 'Acme Plumbing') {
  await page.goto(path);
  await page.getByRole('heading', { name: `Join ${org}` }).waitFor();
  const form = page.getByRole('form', { name: 'Create your account' });
  expect(await form.getByLabel('Email').inputValue()).toBe(who.email);
  await form.getByLabel('First name').fill(who.first);
  await form.getByLabel(/^Password \(at least 12 characters\)$/).fill(who.password);
  await form.getByLabel('Password again').fill(who.password);
  await form.getByRole('button', { name: `Create account and join ${org}` }).click();
  await expectPath(page, '/dashboard');
}

/** Invited and joined through the API (a journey run on its own, without the invitation journey first). */
async function joinedThroughApi(api: Api, role: string, name: string): Promise<Person> {
  const who = newPerson(name);
  const { token } = await api.call<{ token: string }>('POST', '/v1/team/invitations/', { org: ACME, body: { email: who.email, role } });
  await acceptInvitation(token, who.first, who.password);
  return who;
}

const memberRow = (page: Page, email: string) =>
  page
    .getByRole('table', { name: /^Members/ })
    .getByRole('row')
    .filter({ hasText: email });

describe.skipIf(skipReason)('the team', () => {
  const browser = useBrowser();
  let ownerApi: Promise<Api> | undefined;
  /** The owner's own API session, for setting up a journey run alone and for putting things back. */
  const housekeeping = () => (ownerApi ??= apiAs(OWNER));

  const ownerOn = (path: string) => browser.signedIn(OWNER, { org: 'Acme Plumbing', path });
  afterAll(async () => {
    if (person && !happened.removed) await removeMember(await housekeeping(), ACME, person.email);
  });
  const thePerson = async (): Promise<Person> => {
    if (person && !happened.removed) return person;
    person = await joinedThroughApi(await housekeeping(), 'member', 'Riley');
    happened.invited = true;
    happened.roleChanged = happened.removed = false;
    return person;
  };

  test('D28 the owner invites a new person, who opens the link in a fresh browser context, creates an account and lands on the dashboard with the invited role', async () => {
    const who = newPerson('Riley');
    try {
      const { page } = await ownerOn('/team');
      await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
      const path = await inviteThroughPage(page, who.email, 'member');
      const pending = page.getByRole('table', { name: 'Pending invitations' }).getByRole('row').filter({ hasText: who.email });
      await pending.getByText('Member').waitFor();
      happened.invited = true;

      const fresh = await browser.open();
      await joinThroughLink(fresh.page, path, who);
      person = who;
      await fresh.page.getByRole('complementary').getByText('Acme Plumbing').waitFor();
      await fresh.page.getByRole('button', { name: who.email }).waitFor();
      expect((await storage(fresh.page)).current_org_id).toBe(String(ACME));
      // A member (D10): the customers and the communication pages, no Admin section.
      const nav = sidebarNav(fresh.page);
      for (const link of ['Dashboard', 'SMS', 'Customers', 'Jobs']) await nav.getByRole('link', { name: link, exact: true }).waitFor();
      for (const link of ['Team', 'Permissions', 'Activity']) expect(await nav.getByRole('link', { name: link, exact: true }).count()).toBe(0);
      await nav.getByRole('link', { name: 'Customers' }).click();
      await fresh.page.getByRole('link', { name: 'Add Customer' }).waitFor(); // customers:create

      // The owner sees them in the team, as a member, and the invitation is no longer pending.
      await page.reload();
      const row = memberRow(page, who.email);
      expect(await row.getByRole('combobox', { name: `Role of ${who.first}` }).inputValue()).toBe('member');
      await page.getByRole('table', { name: 'Pending invitations' }).or(page.getByText('No pending invitations.')).first().waitFor();
      expect(await pending.count()).toBe(0);
    } finally {
      await revokeInvitations(await housekeeping(), ACME, [who.email]);
    }
  });

  test("D28 the owner changes that person's role and the person's next page load reflects it", async () => {
    const who = await thePerson();
    const theirs = await browser.signedIn(who.email, { password: who.password, path: '/customers' });
    await theirs.page.getByRole('link', { name: 'Add Customer' }).waitFor();

    const { page } = await ownerOn('/team');
    const role = memberRow(page, who.email).getByRole('combobox', { name: `Role of ${who.first}` });
    await role.selectOption('viewer');
    await toasts(page).getByText(`Role changed: ${who.first} is now a viewer`).waitFor();
    expect(await role.inputValue()).toBe('viewer');
    happened.roleChanged = true;

    await theirs.page.reload();
    await theirs.page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    await theirs.page.getByRole('table').getByRole('row').nth(1).waitFor();
    expect(await theirs.page.getByRole('link', { name: 'Add Customer' }).count()).toBe(0);
    expect(await sidebarNav(theirs.page).getByRole('link', { name: 'Jobs' }).count()).toBe(0); // a viewer has customers and the dashboard only
    await theirs.page.goto('/customers/new');
    await expectPath(theirs.page, '/forbidden');
  });

  test('D28 the owner removes them and their open tab loses access to that organization', async () => {
    const who = await thePerson();
    const theirs = await browser.signedIn(who.email, { password: who.password });
    await theirs.page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    const { page } = await ownerOn('/team');
    await memberRow(page, who.email)
      .getByRole('button', { name: `Remove ${who.first}` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Remove ${who.first}?` });
    await dialog.getByText(`${who.first} (${who.email}) will lose access to Acme Plumbing at their next request.`).waitFor();
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await toasts(page).getByText(`${who.first} was removed from the team`).waitFor();
    await memberRow(page, who.email).waitFor({ state: 'detached' });
    happened.removed = true;

    // Their open tab: the next request is refused, and no customer of Acme shows.
    await sidebarNav(theirs.page).getByRole('link', { name: 'Customers' }).click();
    await theirs.page.getByText('You do not have permission to view the customers of this organization.').waitFor();
    expect(await theirs.page.getByRole('table').count()).toBe(0);
    // Their next page load: no organization is left to them (D4).
    await theirs.page.reload();
    await theirs.page.getByText('Session could not be loaded. Please log in again.').waitFor();
    await expectPath(theirs.page, '/login');
  });

  test("D29 the owner takes customers:create from member and solo's 'Add Customer' disappears and /customers/new is forbidden, then resets to defaults", async () => {
    const api = await housekeeping();
    const before: Matrix = await matrixOf(api, ACME);
    expect(before.member).toContain('customers:create');
    try {
      const solo = await browser.signedIn('solo@demo.test', { path: '/customers' });
      await solo.page.getByRole('link', { name: 'Add Customer' }).waitFor();

      const { page } = await ownerOn('/permissions');
      await page.getByRole('heading', { name: 'Permissions', level: 1 }).waitFor();
      const box = page.getByRole('checkbox', { name: 'member: customers:create' });
      expect(await box.isChecked()).toBe(true);
      expect(await page.getByRole('checkbox', { name: 'owner: customers:create' }).isDisabled()).toBe(true); // D29: the owner row is fixed
      await box.uncheck();
      await page.getByText('You have unsaved changes.').waitFor();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await toasts(page).getByText('Permissions saved').waitFor();
      happened.permissionsChanged = true;

      await solo.page.reload();
      await solo.page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
      await solo.page.getByRole('table').getByRole('row').nth(1).waitFor();
      expect(await solo.page.getByRole('link', { name: 'Add Customer' }).count()).toBe(0);
      expect(await solo.page.getByRole('link', { name: 'Import' }).count()).toBe(0);
      await solo.page.goto('/customers/new');
      await expectPath(solo.page, '/forbidden');

      await page.getByRole('button', { name: 'Reset to defaults' }).click();
      const dialog = page.getByRole('dialog', { name: 'Reset permissions to the defaults?' });
      await dialog.getByRole('button', { name: 'Reset to defaults' }).click();
      await toasts(page).getByText('Permissions reset to the defaults').waitFor();
      await expect.poll(() => box.isChecked()).toBe(true);

      await solo.page.goto('/customers');
      await solo.page.getByRole('link', { name: 'Add Customer' }).waitFor();
    } finally {
      const now = await matrixOf(api, ACME);
      if (JSON.stringify(now) !== JSON.stringify(before)) await putMatrix(api, ACME, before);
    }
  });

  test('D30 the activity page shows each of those changes', async () => {
    const api = await housekeeping();
    // Run without the journeys above (or after one failed), their changes are made here through the API.
    let who = person;
    if (!who || !happened.invited || !happened.roleChanged || !happened.removed) {
      if (who && !happened.removed) await removeMember(api, ACME, who.email);
      who = person = await joinedThroughApi(api, 'member', 'Riley');
      const m = await memberByEmail(api, ACME, who.email);
      await api.call('PATCH', `/v1/team/members/${m?.user_id}/`, { org: ACME, body: { role: 'viewer' } });
      await removeMember(api, ACME, who.email);
      happened.invited = happened.roleChanged = happened.removed = true;
    }
    if (!happened.permissionsChanged) {
      const before = await matrixOf(api, ACME);
      await putMatrix(api, ACME, { ...before, member: (before.member ?? []).filter((p) => p !== 'customers:create') });
      await api.call('POST', '/v1/permissions/reset/', { org: ACME });
      if (JSON.stringify(await matrixOf(api, ACME)) !== JSON.stringify(before)) await putMatrix(api, ACME, before);
    }

    const { page } = await ownerOn('/activity');
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    const log = page.getByRole('table', { name: /^Activity, newest first/ });
    const entries = [
      `Olivia invited ${who.email} as member`,
      `${who.first} joined the team as member (invited as ${who.email})`,
      `Olivia changed ${who.first}’s role from member to viewer`,
      `Olivia removed ${who.first} (viewer) from the team`,
      'Olivia changed the permissions: took “Add and import customers” from the member role',
      'Olivia reset the permissions to the defaults (gave the member role “Add and import customers”)',
    ];
    for (const text of entries) await log.getByRole('row').filter({ hasText: text }).first().waitFor();
    // Newest first: the reset is above the removal, the removal above the invitation.
    const order = await log.getByRole('row').allTextContents();
    const at = (text: string) => order.findIndex((r) => r.includes(text));
    expect(at(entries[5]!)).toBeLessThan(at(entries[3]!));
    expect(at(entries[3]!)).toBeLessThan(at(entries[2]!));
    expect(at(entries[2]!)).toBeLessThan(at(entries[0]!));
    // Filtered to one action, through the URL.
    await page.getByLabel('Action').selectOption({ label: 'Member removed' });
    await page.waitForURL((u) => u.search.includes('member.removed'));
    await expect.poll(() => log.getByRole('row').filter({ hasText: 'invited' }).count()).toBe(0);
    await log.getByRole('row').filter({ hasText: entries[3]! }).waitFor();
    expect(await page.getByLabel('Action').inputValue()).toBe('member.removed');
  });

  test('D28 an admin cannot demote the owner and the page says why', async () => {
    // Beacon Electric has no owner in the demo data: a new admin of Acme, invited by its owner, tries instead.
    const api = await housekeeping();
    const admin = newPerson('Avery');
    try {
      const { token } = await api.call<{ token: string }>('POST', '/v1/team/invitations/', { org: ACME, body: { email: admin.email, role: 'admin' } });
      const { page } = await browser.open();
      await joinThroughLink(page, `/invite/${token}`, admin);
      await sidebarNav(page).getByRole('link', { name: 'Team' }).click();
      await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
      // An admin manages the others (Sam's role can be changed)…
      await memberRow(page, 'solo@demo.test').getByRole('combobox', { name: 'Role of Sam' }).waitFor();
      // …but not the owner: no role menu, no Remove on Olivia's row, and the page says why.
      const owner = memberRow(page, OWNER);
      await owner.getByRole('cell', { name: 'Owner', exact: true }).waitFor();
      expect(await owner.getByRole('combobox').count()).toBe(0);
      expect(await owner.getByRole('button').count()).toBe(0);
      // Asked anyway with the admin's session, the server refuses (D28).
      const olivia = await memberByEmail(api, ACME, OWNER);
      const answer = await page.evaluate(
        async ({ id, org }) => {
          const res = await fetch(`/api/v1/team/members/${id}/`, {
            method: 'PATCH',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('access_token')}`, 'X-Organization-ID': String(org) },
            body: JSON.stringify({ role: 'admin' }),
          });
          return { status: res.status, body: (await res.json()) as unknown };
        },
        { id: olivia?.user_id, org: ACME },
      );
      expect(answer).toEqual({ status: 403, body: expect.objectContaining({ code: 'owner_required' }) });
      expect((await memberByEmail(api, ACME, OWNER))?.role).toBe('owner');
      // The page, though, only shows 'Owner' as plain text: it should say why it cannot be changed.
      await page
        .getByText(/only an owner/i)
        .first()
        .waitFor({ timeout: 3_000 });
    } finally {
      await revokeInvitations(api, ACME, [admin.email]);
      await removeMember(api, ACME, admin.email);
    }
  });

  test('D28 the last owner cannot leave', async () => {
    const api = await housekeeping();
    const { page } = await ownerOn('/team');
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    const own = memberRow(page, OWNER);
    await own.getByText('(you)').waitFor();
    await own.getByRole('cell', { name: 'Owner', exact: true }).waitFor();
    // Nothing on the owner's own row: no role menu (nobody changes their own role), no Remove or Leave.
    expect(await own.getByRole('combobox').count()).toBe(0);
    expect(await own.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('button', { name: /leave/i }).count()).toBe(0);
    // Asked anyway, the server refuses and says why; Olivia is still the owner.
    const me = await memberByEmail(api, ACME, OWNER);
    const refusal = await api.call('DELETE', `/v1/team/members/${me?.user_id}/`, { org: ACME }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).status).toBe(409);
    expect((refusal as ApiError).body).toMatchObject({ code: 'last_owner', detail: 'The last owner cannot leave; make someone else an owner first' });
    await page.reload();
    await memberRow(page, OWNER).getByRole('cell', { name: 'Owner', exact: true }).waitFor();
    expect((await memberByEmail(api, ACME, OWNER))?.role).toBe('owner');
  });
});
