// D54 two-step sign-in as the fake API answers it (FakeApi.mfa): the login's 202 and second step, the
// account's setup (with the password), confirm, new recovery codes and turn-off, and a team member's
// reset; one code works ('123456'), recovery codes once each, and a test can expire the challenge,
// throttle, or queue a refusal.
import type { FakeApi } from './fake-api';
import { json, type Call } from './fake-http';

export const GOOD_CODE = '123456';
export const PASSWORD = 'demo-password';
export const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
export const OTPAUTH_URI = `otpauth://totp/CRM:owner@demo.test?secret=${SECRET}&issuer=CRM&digits=6&period=30`;
export const RECOVERY_CODES = Array.from({ length: 10 }, (_, i) => `rc${i}a-b${i}cd`);
/** D54: the set a 'Make new recovery codes' answers. */
export const NEW_RECOVERY_CODES = Array.from({ length: 10 }, (_, i) => `nw${i}a-b${i}cd`);

const invalidCode = () => json(400, { detail: 'The code is not valid.', code: 'invalid_code' });
const wrongPassword = () => json(400, { detail: 'The password is not right.', code: 'wrong_password', field: 'password' });

export class FakeMfa {
  /** The person signing in has two-step sign-in on: the login answers 202 with a challenge. */
  required = false;
  /** The signed-in person's own two-step sign-in (the account page). */
  enabled = false;
  challenge = 'challenge-1';
  /** The challenge's 5 minutes have passed: the second step answers 410. */
  expired = false;
  /** Wrong codes were throttled: the second step answers 429. */
  throttled = false;
  usedRecovery = new Set<string>();
  /** Answers to give once, before the normal ones: path (after the API base) → answer. */
  refusals = new Map<string, Response>();
  /** Members whose two-step sign-in was reset (DELETE /v1/team/members/{id}/mfa/). */
  resets: number[] = [];

  constructor(private readonly api: FakeApi) {}

  refuse(path: string, status: number, code: string, detail: string): void {
    this.refusals.set(path, json(status, { detail, code }));
  }

  /** POST /v1/auth/login/ with the right password. */
  login(): Response {
    return json(202, { mfa_required: true, challenge: this.challenge });
  }

  /** The fake's routes of D54; undefined when `p` is none of them. */
  handle(call: Call, p: string, authed: boolean): Response | undefined {
    const mine = p === '/v1/auth/mfa/' || p.startsWith('/v1/account/mfa/') || /^\/v1\/team\/members\/\d+\/mfa\/$/.test(p);
    if (!mine) return undefined;
    const refusal = this.refusals.get(p);
    if (refusal) {
      this.refusals.delete(p);
      return refusal;
    }
    const body = (call.body ?? {}) as Record<string, unknown>;
    if (p === '/v1/auth/mfa/') return this.complete(body);
    if (!authed) return json(401, { detail: 'expired', code: 'token_expired' });
    if (p === '/v1/account/mfa/setup/') {
      if (body.password !== PASSWORD) return wrongPassword(); // D54
      return this.enabled ? json(409, { detail: 'Two-step sign-in is already on.', code: 'mfa_enabled' }) : json(200, { secret: SECRET, otpauth_uri: OTPAUTH_URI });
    }
    if (p === '/v1/account/mfa/recovery-codes/') {
      if (body.password !== PASSWORD) return wrongPassword();
      if (!this.enabled) return json(409, { detail: 'Two-step sign-in is not on', code: 'mfa_not_enabled' });
      return json(200, { recovery_codes: NEW_RECOVERY_CODES });
    }
    if (p === '/v1/account/mfa/confirm/') {
      if (body.code !== GOOD_CODE) return invalidCode();
      this.enabled = true;
      return json(200, { recovery_codes: RECOVERY_CODES });
    }
    if (p === '/v1/account/mfa/' && call.method === 'DELETE') {
      if (body.password !== PASSWORD) return wrongPassword();
      if (body.code !== GOOD_CODE && !RECOVERY_CODES.includes(String(body.code))) return invalidCode();
      this.enabled = false;
      return new Response(null, { status: 204 });
    }
    const reset = /^\/v1\/team\/members\/(\d+)\/mfa\/$/.exec(p);
    if (reset && call.method === 'DELETE') {
      const member = this.api.team.members.find((m) => m.user_id === Number(reset[1]));
      if (!member) return json(404, { detail: 'Not found.', code: 'not_found' });
      this.resets.push(member.user_id);
      member.mfa_enabled = false;
      return new Response(null, { status: 204 });
    }
    return json(405, { detail: 'Method not allowed', code: 'method_not_allowed' });
  }

  /** POST /v1/auth/mfa/: the challenge with a code or an unused recovery code → the login answer. */
  private complete(body: Record<string, unknown>): Response {
    if (this.expired || body.challenge !== this.challenge) return json(410, { detail: 'Sign in again.', code: 'challenge_expired' });
    if (this.throttled) return json(429, { detail: 'Too many attempts.', code: 'throttled' });
    const recovery = typeof body.recovery_code === 'string' ? body.recovery_code : null;
    const ok = recovery !== null ? RECOVERY_CODES.includes(recovery) && !this.usedRecovery.has(recovery) : body.code === GOOD_CODE;
    if (!ok) return invalidCode();
    if (recovery !== null) this.usedRecovery.add(recovery);
    return json(200, { ...this.api.issue(), ...(this.api.deviceToken ? { device_token: this.api.deviceToken } : {}) });
  }
}
