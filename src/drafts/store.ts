// D41: drafts. What a person typed into a form is kept in this tab's sessionStorage under
// `draft:{email}:{org}:{form}`: the signed-in email (lowercased), the organization this tab shows (D21),
// and the form ('customer-new', 'customer-edit:7', 'note:7', 'invite', 'permissions', 'custom-field-new:customer',
// 'custom-field-edit:7'). The value is
// JSON `{ v: 1, at, data }` (`at`: when it was written, ms). Reads and writes never throw (storage can
// be full, disabled or hold garbage). A field named like a password, token or secret is never written.
import { DRAFT_PREFIX } from '../lib/storage';

export interface Draft<T> {
  /** When it was written (ms since the epoch). */
  at: number;
  data: T;
}

/** D41: the key of one form's draft for one user in one organization. */
export const draftKey = (email: string, orgId: number, form: string) => `${DRAFT_PREFIX}${email.trim().toLowerCase()}:${orgId}:${form}`;

/** Runs `f` on sessionStorage; null when storage is missing, disabled, full or `f` throws. */
function use<R>(f: (s: Storage) => R): R | null {
  try {
    return f(sessionStorage);
  } catch {
    return null;
  }
}

/** The data as JSON without any field named like a secret, at any depth. */
export const withoutSecrets = (data: unknown): string => JSON.stringify(data, (k, v: unknown) => (/password|token|secret/i.test(k) ? undefined : v));

export function readDraft<T>(key: string): Draft<T> | null {
  const v = use((s) => JSON.parse(s.getItem(key) ?? 'null') as { v?: unknown; at?: unknown; data?: T } | null);
  return v?.v === 1 && typeof v.at === 'number' && v.data !== undefined ? { at: v.at, data: v.data } : null;
}

export const writeDraft = (key: string, data: unknown, at = Date.now()) => use((s) => s.setItem(key, `{"v":1,"at":${at},"data":${withoutSecrets(data)}}`));

export const removeDraft = (key: string) => use((s) => s.removeItem(key));
