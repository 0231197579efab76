// The account journeys' people: a new member of Acme of their own (so a journey may change their
// password or two-step sign-in), and what a tab whose session ended on the server shows (SPEC §8).
import type { Page } from 'playwright-core';
import { afterAll, expect } from 'vitest';
import { ACME, apiAs, removeMember, unique, type Api } from './api';
import { baseURL, expectPath, sidebarNav, storage } from './browser';

export interface Person {
  email: string;
  first: string;
  password: string;
}

/** A new member of Acme, invited by the owner and joined through the API. */
export async function newMember(owner: Api, name: string): Promise<Person> {
  const who = { email: `${name.toLowerCase()}.${unique()}@example.test`, first: name, password: `pw-${unique()}-long-enough` };
  const { token } = await owner.call<{ token: string }>('POST', '/v1/team/invitations/', { org: ACME, body: { email: who.email, role: 'member' } });
  // The acceptance signs in (a session of its own): signed out here, so the journeys see only their browsers'.
  const res = await fetch(`${baseURL}/api/v1/invitations/${token}/accept/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ first_name: who.first, password: who.password }),
  });
  expect(res.status).toBeLessThan(300);
  const joined = (await res.json()) as { refresh_token?: string; session_id?: number };
  if (joined.refresh_token) {
    await fetch(`${baseURL}/api/v1/auth/logout/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refresh_token: joined.refresh_token, session_id: joined.session_id }),
    });
  }
  return who;
}

/**
 * For a describe block: the owner's API (signed in once, on first use) and `member(name)`, a new member of
 * Acme made through it; every member made is removed after the block.
 */
export function membersOfTheBlock() {
  let ownerApi: Promise<Api> | undefined;
  const owner = () => (ownerApi ??= apiAs('owner@demo.test'));
  const made: string[] = [];
  const member = async (name: string) => {
    const who = await newMember(await owner(), name);
    made.push(who.email);
    return who;
  };
  afterAll(async () => {
    for (const email of made) await removeMember(await owner(), ACME, email);
  });
  return { owner, member };
}

/** Ends the tab's session on the server (its logout call, from outside the tab): the tab does not know yet. */
export async function endSessionOnServer(page: Page): Promise<void> {
  const s = await storage(page);
  const res = await fetch(`${baseURL}/api/v1/auth/logout/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refresh_token: s.refresh_token, session_id: Number(s.session_id) }),
  });
  expect(res.status).toBeLessThan(300);
}

/** SPEC §8: a session ended on the server — the tab's next call opens 'Session Expired'; 'Log In Again' goes to /login. */
export async function expectSignedOut(page: Page) {
  await sidebarNav(page).getByRole('link', { name: 'Customers' }).click(); // the customers list calls the API
  const dialog = page.getByRole('dialog', { name: 'Session Expired' });
  await dialog.waitFor();
  await dialog.getByText('Your session expired or could not be refreshed. Please log in again.').waitFor();
  await dialog.getByRole('button', { name: 'Log In Again' }).click();
  await expectPath(page, '/login');
}
