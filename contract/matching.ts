// D39 D45: how the product reads what people write in emails, phones and searches, shared by the app and
// the server (and, for folding and phone digits, mirrored by SQL functions of the schema: server/search-sql.ts).

/**
 * D39: an email is an addr-spec only: a dot-atom local part, '@', a domain of dot-separated labels (with at
 * least one dot). No `?`, `&`, `%`, quotes, spaces, brackets or comments, so a `mailto:` link built from it
 * can never carry headers (`?bcc=`); letters beyond ASCII are allowed (internationalized addresses).
 */
export const EMAIL_SHAPE =
  /^[A-Za-z0-9!#$*+/=^_`{|}~\p{L}\p{N}\p{M}-]+(?:\.[A-Za-z0-9!#$*+/=^_`{|}~\p{L}\p{N}\p{M}-]+)*@[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]*[\p{L}\p{N}\p{M}])?(?:\.[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]*[\p{L}\p{N}\p{M}])?)+$/u;

export const isEmail = (text: string): boolean => EMAIL_SHAPE.test(text);

/**
 * D39 D45: where a phone's extension begins: the first `ext` (`ext.`, `extension`), `x` or `#`. The SQL
 * twin is `crm_phone_digits` (same rule: everything from the first marker on is the extension).
 */
export const PHONE_EXTENSION_MARK = /ext|x|#/i;

/** D39: a phone as the number and its extension (digits only; null when there is none). */
export function splitPhone(phone: string): { number: string; extension: string | null } {
  const at = phone.search(PHONE_EXTENSION_MARK);
  if (at < 0) return { number: phone, extension: null };
  const extension = phone.slice(at).replace(/\D/g, '');
  return { number: phone.slice(0, at), extension: extension || null };
}

/** D22 D45: the number's digits, without its extension: what search and the duplicate warning compare. */
export const phoneDigits = (phone: string): string => splitPhone(phone).number.replace(/\D/g, '');

/** D45: the fewest digits that make a number; two numbers are the same when one's digits end the other's. */
export const PHONE_MATCH_DIGITS = 7;

/** D45: the same number, with or without a country or trunk code (`+1 503 555 0124` and `(503) 555-0124`). */
export function samePhone(a: string, b: string): boolean {
  const [short, long] = [phoneDigits(a), phoneDigits(b)].sort((x, y) => x.length - y.length) as [string, string];
  return short.length >= PHONE_MATCH_DIGITS && long.endsWith(short);
}

// D45 folding (case and accents) is in fold.ts: its table stays out of the bundles that only check emails
// and phones.
