// D51 D53: the account routes' refusals and password work. A field's refusal is 400 validation_error with
// the words under `errors` (and the first field under `field`, as every 400 of the API names it); the
// current password is checked by auth/current-password.ts; hashing is bounded (D35).
import { PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT } from '../../../contract/account';
import { hashingRefusal } from '../../auth/guards';
import { hashPassword } from '../../auth/passwords';
import type { Ctx } from '../../context';
import { HttpError } from '../../http';
import type { Check } from '../../schema';

/** 400 validation_error: each refused field with its words. */
export function validationError(errors: Record<string, string>): HttpError {
  const [field = ''] = Object.keys(errors);
  return new HttpError(
    400,
    'validation_error',
    Object.entries(errors)
      .map(([f, words]) => `${f}: ${words}`)
      .join(' '),
    {},
    { field, errors },
  );
}

/** Runs a schema check, putting its refusal's words under `errors[field]` instead of throwing. */
export function collect<T>(errors: Record<string, string>, field: string, value: unknown, check: Check<T>): T | undefined {
  try {
    return check(value, field);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    errors[field] = err.detail.replace(`${field}: `, '');
    return undefined;
  }
}

/** D51 D53: a new password's refusal (characters, not UTF-16 units), or null. */
export const newPasswordWords = (password: string): string | null => ([...password].length < PASSWORD_MIN_LENGTH ? PASSWORD_TOO_SHORT : null);

/** D17 D35: a new password's hash, bounded like every hashing (a busy server is 503, the address's share 429). */
export async function newPasswordHash(ctx: Ctx, address: string, password: string, call: 'login' | 'invitation'): Promise<string> {
  try {
    return await hashPassword(password, ctx.scryptCost, address);
  } catch (err) {
    throw hashingRefusal(err, call) ?? err;
  }
}
