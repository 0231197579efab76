// D51–D54 as the fake API answers them (FakeApi.account): the person's account, their sessions,
// password change, reset links (made on the team page, used on the public page) and the organization's
// settings, on in-memory data, with one-off refusals a test can queue (as fake-team.ts).
import type { AccountView, OrganizationSettings, ResetLookup, SessionView } from '../../contract/account';
import { PASSWORD_MIN_LENGTH } from '../../contract/team';
import { json, type Call } from './fake-http';
import type { Refusal } from './fake-team';

export const PASSWORD = 'correct horse battery';
export const RESET_TOKEN = 'rst0001abcdefghijklmnopqrstuv';

const THIS: SessionView = {
  id: 7,
  browser: 'Firefox 128',
  system: 'Linux',
  address: '203.0.113.5',
  started_at: '2024-05-01T09:00:00.000Z',
  last_active_at: '2024-06-01T11:59:00.000Z',
  current: true,
};
const PHONE: SessionView = {
  id: 8,
  browser: 'Safari 17',
  system: 'iOS',
  address: '198.51.100.7',
  started_at: '2024-05-20T18:00:00.000Z',
  last_active_at: '2024-05-31T20:00:00.000Z',
  current: false,
};
const OFFICE: SessionView = {
  id: 9,
  browser: null,
  system: null,
  address: null,
  started_at: '2024-04-02T08:00:00.000Z',
  last_active_at: '2024-04-03T08:00:00.000Z',
  current: false,
};

export interface FakeReset extends ResetLookup {
  status: 'live' | 'used' | 'expired';
}

export class FakeAccount {
  account: AccountView = { id: 1, email: 'owner@demo.test', first_name: 'Olive', mfa_enabled: false, recovery_codes_left: null, created_at: '2024-01-02T10:00:00.000Z' };
  password = PASSWORD;
  sessions: SessionView[] = [THIS, PHONE, OFFICE].map((s) => ({ ...s }));
  /** Emails other accounts use (409 email_taken). */
  taken = new Set(['ada@example.com']);
  resets = new Map<string, FakeReset>([[RESET_TOKEN, { email: 'mo@example.com', first_name: 'Mo', expires_at: '2024-06-01T13:00:00.000Z', status: 'live' }]]);
  settings: OrganizationSettings = { require_mfa: false };
  /** The caller's role in the organization (settings: owner only). */
  role = 'owner';
  /** Bodies of reset-link calls by user id, and of resets, in order. */
  links: number[] = [];
  refusals: Refusal[] = [];
  private serial = 0;

  refuse(method: string, path: string, status: number, code: string, detail: string, extra?: Record<string, unknown>): void {
    this.refusals.push({ method, path, status, code, detail, extra });
  }

  /** Whether this fake answers the path (after the API base). */
  static owns(p: string): boolean {
    return /^\/v1\/(account|organization|password-resets)\//.test(p) || /^\/v1\/team\/members\/\d+\/reset-link\/$/.test(p);
  }

  handle(call: Call, p: string): Response {
    const refusal = this.refusals.findIndex((r) => r.method === call.method && r.path === p);
    if (refusal >= 0) {
      const [r] = this.refusals.splice(refusal, 1);
      return json(r!.status, { detail: r!.detail, code: r!.code, ...r!.extra });
    }
    const body = (call.body ?? {}) as Record<string, unknown>;
    const m = call.method;
    const short = (field: string) =>
      json(400, {
        detail: `${field}: Use at least ${PASSWORD_MIN_LENGTH} characters.`,
        code: 'validation_error',
        errors: { [field]: `Use at least ${PASSWORD_MIN_LENGTH} characters.` },
      });
    const wrong = () => json(400, { detail: 'The current password is wrong', code: 'wrong_password', errors: { current_password: 'The current password is wrong.' } });

    if (p === '/v1/account/' && m === 'GET') return json(200, this.account);
    if (p === '/v1/account/' && m === 'PATCH') {
      if (typeof body.first_name === 'string') {
        if (!body.first_name.trim()) return json(400, { detail: 'first_name: is required', code: 'validation_error', errors: { first_name: 'Enter a first name.' } });
        this.account.first_name = body.first_name;
      }
      if (typeof body.email === 'string') {
        if (body.current_password !== this.password) return wrong();
        if (this.taken.has(body.email.toLowerCase())) return json(409, { detail: 'That email is taken', code: 'email_taken' });
        this.account.email = body.email;
      }
      return json(200, this.account);
    }
    if (p === '/v1/account/password/' && m === 'POST') {
      if (body.current_password !== this.password) return wrong();
      if (typeof body.new_password !== 'string' || body.new_password.length < PASSWORD_MIN_LENGTH) return short('new_password');
      this.password = body.new_password;
      return json(200, { ended_sessions: this.endOthers() });
    }
    if (p === '/v1/account/sessions/' && m === 'GET') return json(200, { results: this.sessions });
    if (p === '/v1/account/sessions/revoke-others/' && m === 'POST') return json(200, { ended_sessions: this.endOthers() });
    const one = /^\/v1\/account\/sessions\/(\d+)\/$/.exec(p);
    if (one && m === 'DELETE') {
      const before = this.sessions.length;
      this.sessions = this.sessions.filter((s) => s.id !== Number(one[1]));
      return before === this.sessions.length ? json(404, { detail: 'Not found', code: 'not_found' }) : new Response(null, { status: 204 });
    }
    const link = /^\/v1\/team\/members\/(\d+)\/reset-link\/$/.exec(p);
    if (link && m === 'POST') {
      this.links.push(Number(link[1]));
      const token = `rst${String(++this.serial).padStart(4, '0')}zyxwvutsrqponmlkjihgf`;
      return json(201, { token, expires_at: '2024-06-01T13:00:00.000Z' });
    }
    const reset = /^\/v1\/password-resets\/([^/]+)\/$/.exec(p);
    if (reset) {
      const r = this.resets.get(decodeURIComponent(reset[1]!));
      if (!r) return json(404, { detail: 'Not found', code: 'not_found' });
      if (r.status !== 'live') return json(410, { detail: `This link was ${r.status}`, code: `reset_${r.status}` });
      if (m === 'GET') return json(200, { email: r.email, first_name: r.first_name, expires_at: r.expires_at });
      if (typeof body.password !== 'string' || body.password.length < PASSWORD_MIN_LENGTH) return short('password');
      r.status = 'used';
      return json(200, { email: r.email });
    }
    if (p === '/v1/organization/settings/' && m === 'GET') return json(200, this.settings);
    if (p === '/v1/organization/settings/' && m === 'PATCH') {
      if (this.role !== 'owner') return json(403, { detail: 'Only an owner can change the organization’s settings', code: 'forbidden' });
      this.settings = { ...this.settings, ...(body as Partial<OrganizationSettings>) };
      return json(200, this.settings);
    }
    return json(405, { detail: 'Method not allowed', code: 'method_not_allowed' });
  }

  private endOthers(): number {
    const n = this.sessions.filter((s) => !s.current).length;
    this.sessions = this.sessions.filter((s) => s.current);
    return n;
  }
}
