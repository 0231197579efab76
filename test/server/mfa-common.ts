// D54 what the two-step sign-in suites share: enrolling a person (setup, then a code from their secret
// at the server's clock) and the codes they would read off their phone.
import { expect } from 'vitest';
import { base32Decode, totpAt } from '../../server/auth/totp';
import type { Backend } from './backends';
import type { Person } from './people';

export const SETUP = '/api/v1/account/mfa/setup/';
export const CONFIRM = '/api/v1/account/mfa/confirm/';
export const MFA = '/api/v1/account/mfa/';
export const SECOND_STEP = '/api/v1/auth/mfa/';
export const SETTINGS = '/api/v1/organization/settings/';
export const STEP_MS = 30_000;

export interface Enrolled {
  secret: Buffer;
  recoveryCodes: string[];
  /** The code the person's phone shows now, `steps` steps of 30 s away. */
  code: (steps?: number) => string;
}

export const RECOVERY_CODES = '/api/v1/account/mfa/recovery-codes/';

/** Turns two-step sign-in on for the person (D54: setup takes the password); the clock then moves to the next step, so the confirming code is spent. */
export async function enrol(b: Pick<Backend, 'clock'>, p: Person): Promise<Enrolled> {
  const setup = await p.call('POST', SETUP, { password: p.password });
  expect(setup.status, setup.text).toBe(200);
  const secret = base32Decode(setup.body.secret as string)!;
  const code = (steps = 0) => totpAt(secret, b.clock.now() + steps * STEP_MS);
  const confirmed = await p.call('POST', CONFIRM, { code: code() });
  expect(confirmed.status, confirmed.text).toBe(200);
  b.clock.advance(STEP_MS);
  return { secret, recoveryCodes: confirmed.body.recovery_codes as string[], code };
}

/** A login's 202 challenge for the person. */
export async function challengeFor(b: Pick<Backend, 'api'>, p: Pick<Person, 'email' | 'password'>, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await b.api.login(p.email, p.password, extra);
  expect(r.status, r.text).toBe(202);
  return r.body.challenge as string;
}
