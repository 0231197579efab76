// D54 D37 two-step sign-in in the secrets checks: a person enrols (with the password), makes a new set of
// recovery codes, signs in with a wrong code and then a recovery code, and turns it off again; the TOTP secret (as shown and as bytes), the challenges and
// the recovery codes become secrets the suite looks for in logs, error answers and audit entries.
// (A 6-digit code is too short to look for without matching by chance; its secret is looked for.)
import { base32Decode, totpAt } from '../../server/auth/totp';
import type { Secret } from './secrets';

type Answer = { status: number; body: Record<string, unknown> };
/** A call under the API's /v1 (the suite's own client), with a bearer token or none. */
export type V1Call = (method: string, path: string, opts: { token?: string; body?: unknown }) => Promise<Answer>;

const expectStatus = (a: Answer, status: number, what: string) => {
  if (a.status !== status) throw new Error(`${what}: expected ${status}, got ${a.status} ${JSON.stringify(a.body)}`);
};

/** The journey for a signed-in person (`token`), at the server's clock `now`; the secrets it handled. */
export async function mfaJourney(call: V1Call, person: { email: string; password: string; token: string }, now: () => number): Promise<Secret[]> {
  const setup = await call('POST', '/account/mfa/setup/', { token: person.token, body: { password: person.password } });
  expectStatus(setup, 200, 'two-step setup');
  const text = setup.body.secret as string;
  const secret = base32Decode(text)!;
  const confirmed = await call('POST', '/account/mfa/confirm/', { token: person.token, body: { code: totpAt(secret, now()) } });
  expectStatus(confirmed, 200, 'two-step confirm');
  const first = confirmed.body.recovery_codes as string[];
  const renewed = await call('POST', '/account/mfa/recovery-codes/', { token: person.token, body: { password: person.password } });
  expectStatus(renewed, 200, 'new recovery codes');
  const codes = renewed.body.recovery_codes as string[];
  const login = await call('POST', '/auth/login/', { body: { email: person.email, password: person.password } });
  expectStatus(login, 202, 'login with two-step sign-in');
  const challenge = login.body.challenge as string;
  const wrong = await call('POST', '/auth/mfa/', { body: { challenge, recovery_code: 'aaaaa-aaaaa' } });
  expectStatus(wrong, 400, 'a wrong recovery code');
  const done = await call('POST', '/auth/mfa/', { body: { challenge, recovery_code: codes[0] } });
  expectStatus(done, 200, 'the second step');
  const again = await call('POST', '/auth/mfa/', { body: { challenge, recovery_code: codes[1] } });
  expectStatus(again, 410, 'a spent challenge');
  const off = await call('DELETE', '/account/mfa/', { token: person.token, body: { password: person.password, code: codes[2] } });
  expectStatus(off, 204, 'two-step sign-in turned off');
  return [
    { label: 'TOTP secret (base32)', value: text },
    { label: 'TOTP secret (hex)', value: secret.toString('hex') },
    { label: 'TOTP secret (base64)', value: secret.toString('base64') },
    { label: 'login challenge', value: challenge },
    { label: 'access token after the second step', value: done.body.access_token as string },
    { label: 'refresh token after the second step', value: done.body.refresh_token as string },
    ...[...first, ...codes].flatMap((c, i) => [
      { label: `recovery code #${i}`, value: c },
      { label: `recovery code #${i} without its dash`, value: c.replace('-', '') },
    ]),
  ];
}
