// D41: drafts. What a person typed into a form is kept in this tab's sessionStorage under
// `draft:{user}:{org}:{form}`: user is a short hash of the signed-in email, org the organization this tab
// shows (D21), form names the form ('customer-new', 'customer-edit:7', 'note:7', 'invite',
// 'permissions'). The value is JSON `{ v: 1, at, data }` (`at`: when it was written, ms). Reads and
// writes never throw (storage can be full, disabled or hold garbage). Never holds a password or token.
import { DRAFT_PREFIX } from '../lib/storage';

export interface Draft<T> {
  /** When it was written (ms since the epoch). */
  at: number;
  data: T;
}

/** A field whose name says it holds a secret is never written (D41, SPEC §3 keeps tokens elsewhere). */
const SECRET = /password|token|secret/i;

/** The data without any field named like a secret, at any depth. */
export function withoutSecrets<T>(data: T): T {
  if (Array.isArray(data)) return data.map(withoutSecrets) as T;
  if (!data || typeof data !== 'object') return data;
  return Object.fromEntries(Object.entries(data).filter(([k]) => !SECRET.test(k)).map(([k, v]) => [k, withoutSecrets(v)])) as T;
}

/** FNV-1a of the lowercased email, as 8 hex digits: a key that tells users apart without spelling one. */
export function userKey(email: string): string {
  let h = 0x811c9dc5;
  for (const ch of email.trim().toLowerCase()) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** D41: the key of one form's draft for one user in one organization. */
export const draftKey = (email: string, orgId: number, form: string) => `${DRAFT_PREFIX}${userKey(email)}:${orgId}:${form}`;

function store(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export function readDraft<T>(key: string): Draft<T> | null {
  try {
    const raw = store()?.getItem(key);
    if (!raw) return null;
    const v = JSON.parse(raw) as { v?: unknown; at?: unknown; data?: unknown };
    if (v?.v !== 1 || typeof v.at !== 'number' || v.data === undefined) return null;
    return { at: v.at, data: v.data as T };
  } catch {
    return null; // garbage reads as no draft
  }
}

export function writeDraft<T>(key: string, data: T, at = Date.now()): void {
  try {
    store()?.setItem(key, JSON.stringify({ v: 1, at, data: withoutSecrets(data) }));
  } catch {
    /* full or disabled: the form itself still holds the values */
  }
}

export function removeDraft(key: string): void {
  try {
    store()?.removeItem(key);
  } catch {
    /* see writeDraft */
  }
}
