// D51 D53: the account calls put a refusal on the field it is about (ui/form.tsx reads a 400's `field`):
// `errors` per field, a wrong current password, a taken email; anything else is left as it was.
import { describe, expect, test } from 'vitest';
import { MSG_EMAIL_TAKEN, MSG_WRONG_PASSWORD, onField } from '../../src/api/account';
import { HttpError, NetworkError } from '../../src/http/errors';

const refusal = (status: number, data: unknown) => new HttpError(status, data, '/v1/account/');
const placed = (e: unknown) => (e instanceof HttpError ? [e.status, e.field, e.detail] : e);

describe('D51 account refusals on their fields', () => {
  test('D51 a wrong current password lands on current_password, a taken email (409) on email', () => {
    expect(placed(onField(refusal(400, { code: 'wrong_password', detail: 'x', errors: { current_password: 'Wrong.' } })))).toEqual([
      400,
      'current_password',
      MSG_WRONG_PASSWORD,
    ]);
    expect(placed(onField(refusal(409, { code: 'email_taken', detail: 'x' })))).toEqual([400, 'email', MSG_EMAIL_TAKEN]);
  });

  test('D51 a validation error lands on its first field, in the server’s words (a string or a list)', () => {
    expect(placed(onField(refusal(400, { code: 'validation_error', errors: { new_password: 'Use at least 12 characters.' } })))).toEqual([
      400,
      'new_password',
      'Use at least 12 characters.',
    ]);
    expect(placed(onField(refusal(400, { code: 'validation_error', errors: { email: ['Not an email.', 'Too long.'] } })))).toEqual([400, 'email', 'Not an email.']);
  });

  test('D51 anything else is left as it was: a 400 with no field, a 403, a 429, a network error', () => {
    for (const e of [
      refusal(400, { code: 'bad_request', detail: 'x' }),
      refusal(403, { code: 'forbidden' }),
      refusal(429, { code: 'throttled' }),
      new NetworkError('/v1/account/', null),
    ])
      expect(onField(e)).toBe(e);
  });
});
