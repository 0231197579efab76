// The API as the journeys' housekeeping uses it: signing in, reading what a journey must put back, and
// putting it back (roles, the permission matrix, people and customers a journey made) in finally
// blocks, so journeys that share one server leave the demo data as they found it. The journeys
// themselves go through the pages.
import { baseURL, DEMO_PASSWORD } from './browser';

export const ACME = 1;
export const BEACON = 2;

/** A random suffix that keeps one journey's names and emails apart from every other's. */
export const unique = (): string => Math.random().toString(36).slice(2, 8);

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { detail?: string; code?: string } & Record<string, unknown>,
  ) {
    super(`${status} ${body.code ?? ''} ${body.detail ?? ''}`.trim());
  }
}

export interface Api {
  call<T = unknown>(method: string, path: string, opts?: { org?: number; body?: unknown }): Promise<T>;
}

async function send<T>(method: string, path: string, { token, org, body }: { token?: string; org?: number; body?: unknown }): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (org !== undefined) headers['X-Organization-ID'] = String(org);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${baseURL}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const data: unknown = text ? JSON.parse(text) : null;
  if (!res.ok) throw new ApiError(res.status, (data ?? {}) as ApiError['body']);
  return data as T;
}

/** Signs in through the API (a session of its own, apart from any browser's). */
export async function apiAs(email: string, password = DEMO_PASSWORD): Promise<Api> {
  const { access_token: token } = await send<{ access_token: string }>('POST', '/v1/auth/login/', { body: { email, password, remember_me: false } });
  return { call: (method, path, opts = {}) => send(method, path, { ...opts, token }) };
}

/** D28: a new person accepts an invitation, signed out: their account is made. */
export async function acceptInvitation(token: string, firstName: string, password: string): Promise<void> {
  await send('POST', `/v1/invitations/${token}/accept/`, { body: { first_name: firstName, password } });
}

export interface Member {
  user_id: number;
  email: string;
  name: string;
  role: string;
}

export const members = async (api: Api, org: number): Promise<Member[]> => (await api.call<{ results: Member[] }>('GET', '/v1/team/members/', { org })).results;

export async function memberByEmail(api: Api, org: number, email: string): Promise<Member | undefined> {
  return (await members(api, org)).find((m) => m.email.toLowerCase() === email.toLowerCase());
}

/** Removes a person a journey added; nothing when they are not (or no longer) a member. */
export async function removeMember(api: Api, org: number, email: string): Promise<void> {
  const m = await memberByEmail(api, org, email);
  if (m) await api.call('DELETE', `/v1/team/members/${m.user_id}/`, { org });
}

/** Revokes the pending invitations a journey made for these emails (an accepted one is history). */
export async function revokeInvitations(api: Api, org: number, emails: readonly string[]): Promise<void> {
  const { results } = await api.call<{ results: { id: number; email: string }[] }>('GET', '/v1/team/invitations/', { org });
  for (const i of results) {
    if (emails.some((e) => e.toLowerCase() === i.email.toLowerCase())) await api.call('DELETE', `/v1/team/invitations/${i.id}/`, { org });
  }
}

export type Matrix = Record<string, string[]>;

/** The organization's editable rows of the permission matrix, to put back as they were. */
export async function matrixOf(api: Api, org: number): Promise<Matrix> {
  const m = await api.call<{ matrix: Matrix; fixed: string[] }>('GET', '/v1/permissions/', { org });
  return Object.fromEntries(Object.entries(m.matrix).filter(([role]) => !m.fixed.includes(role)));
}

export const putMatrix = (api: Api, org: number, matrix: Matrix) => api.call('PUT', '/v1/permissions/', { org, body: { matrix } });

/** Soft-deletes the live customers whose name contains `fragment` (a journey's suffix). */
export async function deleteCustomersMatching(api: Api, org: number, fragment: string): Promise<void> {
  const { results } = await api.call<{ results: { id: number; name: string }[] }>('GET', `/v1/customers/?q=${encodeURIComponent(fragment)}&page_size=100`, { org });
  for (const c of results) if (c.name.includes(fragment)) await api.call('DELETE', `/v1/customers/${c.id}/`, { org });
}

/** D56: custom fields defined through the API (labels carrying a journey's suffix); `remove` archives and deletes them with their values. */
export async function defineFields(api: Api, org: number, bodies: Record<string, unknown>[]) {
  const made: { id: number; key: string; label: string; options: { id: string; label: string }[] }[] = [];
  for (const body of bodies) made.push(await api.call('POST', '/v1/custom-fields/', { org, body }));
  return {
    made,
    async remove() {
      for (const f of made) {
        await api.call('POST', `/v1/custom-fields/${f.id}/archive/`, { org });
        await api.call('DELETE', `/v1/custom-fields/${f.id}/`, { org });
      }
    },
  };
}
