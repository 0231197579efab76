// D54 secrets of two-step sign-in at rest. A TOTP secret is sealed with AES-256-GCM under a key of its
// own: derived (HKDF-SHA256, with a label) from MFA_KEY when set, else from the JWT secret; the user's id
// is the associated data, so a sealed secret copied to another user's row does not open. Recovery codes
// and login challenges are random and kept only as SHA-256 hashes (high entropy: no salt or scrypt needed).
import { RECOVERY_CODE_COUNT } from '../../contract/account';
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const KEY_INFO = 'crm mfa secret v1';
const VERSION = 'm1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** D54: a recovery code: 10 characters of base32 (50 bits), written xxxxx-xxxxx. */
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const RECOVERY_CHARS = 10;

const keys = new Map<string, Buffer>();
/** The sealing key: MFA_KEY's when given, else the JWT secret's (changing either makes enrolled secrets unreadable). */
export function mfaKey(jwtSecret: string, mfaKeyText: string | null): Buffer {
  const source = mfaKeyText ?? jwtSecret;
  let key = keys.get(source);
  if (!key) keys.set(source, (key = Buffer.from(hkdfSync('sha256', source, Buffer.alloc(0), KEY_INFO, 32))));
  return key;
}

const aad = (userId: number) => Buffer.from(`user:${userId}`);

/** A TOTP secret sealed for one user: m1.<iv|ciphertext|tag in base64url>. */
export function sealSecret(key: Buffer, userId: number, secret: Uint8Array): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(userId));
  const body = Buffer.concat([cipher.update(secret), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
}

/** The secret, or null when the blob is not ours, was moved to another user, or the key changed. */
export function openSecret(key: Buffer, userId: number, sealed: string): Buffer | null {
  if (!sealed.startsWith(`${VERSION}.`)) return null;
  const raw = Buffer.from(sealed.slice(VERSION.length + 1), 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(aad(userId));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A new login challenge (256 bits). */
export const newChallenge = (): string => randomBytes(32).toString('base64url');

/** Ten new recovery codes, as shown once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(RECOVERY_CHARS);
    const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b & 31]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A recovery code as people type it (any case, spaces or dashes anywhere), or null when it cannot be one. */
export function normalizeRecoveryCode(typed: string): string | null {
  const plain = typed.toLowerCase().replace(/[\s-]/g, '');
  return plain.length === RECOVERY_CHARS && [...plain].every((c) => RECOVERY_ALPHABET.includes(c)) ? plain : null;
}

/** What is stored for a recovery code. */
export const recoveryHash = (normalized: string): string => sha256(`recovery:${normalized}`);
