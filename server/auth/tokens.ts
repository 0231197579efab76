// D16: refresh tokens are opaque random strings; the database holds only their SHA-256.
// D8: a rotated-out token presented again within the grace window gets the SAME successor. To re-issue
// it without storing it readable, the successor is sealed (AES-256-GCM) under a key derived (HKDF) from
// the predecessor token itself: only whoever holds the old token can open it, and a copy of the
// database (hashes and sealed blobs) yields no usable token.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const TOKEN_BYTES = 32; // 256 bits
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEAL_INFO = 'crm refresh-token successor v1';

export function newRefreshToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function sealKey(predecessor: string): Buffer {
  return Buffer.from(hkdfSync('sha256', predecessor, Buffer.alloc(0), SEAL_INFO, 32));
}

export function sealSuccessor(successor: string, predecessor: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealKey(predecessor), iv);
  const body = Buffer.concat([cipher.update(successor, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The successor sealed under predecessor, or null when the blob does not open with it. */
export function openSuccessor(sealed: string, predecessor: string): string | null {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(predecessor), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
