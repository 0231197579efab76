// D26 D45: how a search and the duplicate warning match, and the tag filter's suggestions: SQL over the
// indexed columns of migration 8 (search_key, phone_digits, phone_tail, tag_keys; customer_tags), every
// query scoped by organization. The list itself (paging, sorting, counting) is in repo.ts.
import type { DuplicateMatch } from '../../../contract/customers';
import { fold, PHONE_MATCH_DIGITS, phoneDigits } from '../../../contract/matching';
import type { Queryable } from '../../db';
import { num } from '../../db';

/** Text that is only a phone number's characters: searched by its digits ('5550107' finds '(503) 555-0107'). */
const PHONE_LIKE = /^[\d\s().+-]*\d[\d\s().+-]*$/;
/** Digit searches shorter than this match too much to be worth it ('5' is in most numbers). */
const MIN_PHONE_DIGITS = 3;

/** A LIKE pattern matching `text` anywhere, with LIKE's own characters taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** Searches shorter than this match name beginnings only: a trigram index needs three characters. */
export const MIN_FRAGMENT = 3;

/**
 * D26 D45: three or more characters are found anywhere in the customer's folded text (name, company, email
 * and every address field, lower case and without accents: one trigram-indexed column) or, when the search
 * looks like a phone number, in the number's digits however it was written; a number given with a country
 * code also finds it stored without one (the stored digits end the searched ones). One or two characters
 * find names that begin with them (behaviour.md). D46/D47 locations and contacts join by customer id.
 */
export function searchClause(q: string, add: (v: string) => string, unindexed: string): string {
  const lower = q.toLowerCase();
  const folded = fold(q);
  // Folding can shorten a search (accents typed as separate marks): under three characters a trigram
  // index cannot serve it, so it is a name prefix too rather than a reading of every row.
  if ([...folded].length < MIN_FRAGMENT) return namePrefix([...lower].length < MIN_FRAGMENT ? lower : folded, add);
  const byText = `(search_key${unindexed}) like ${add(containsPattern(folded))}`;
  const digits = phoneDigits(q);
  if (!PHONE_LIKE.test(q) || digits.length < MIN_PHONE_DIGITS) return byText;
  const parts = [byText, `(phone_digits${unindexed}) like ${add(containsPattern(digits))}`];
  // Digits only, so no LIKE character can be in them.
  if (digits.length > PHONE_MATCH_DIGITS) parts.push(`(phone_tail${unindexed} = ${add(digits.slice(-PHONE_MATCH_DIGITS))} and ${add(digits)} like '%' || phone_digits)`);
  return `(${parts.join(' or ')})`;
}

const MAX_CODE_POINT = 0x10ffff;

/**
 * Names beginning with `text`: a range on the code-point-ordered name_key, which its index serves even in
 * a generic (prepared) plan, where a LIKE with a parameter would be a filter over every row. The range ends
 * before the text with its last code point moved on by one; trailing U+10FFFF (the last there is) is
 * dropped first, and text of U+10FFFF alone has no end (D39: this was a RangeError, a 500).
 */
function namePrefix(text: string, add: (v: string) => string): string {
  const chars = [...text];
  while (chars.length && chars[chars.length - 1]!.codePointAt(0) === MAX_CODE_POINT) chars.pop();
  const last = chars.pop()?.codePointAt(0);
  if (last === undefined) return `name_key >= ${add(text)}`;
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1; // past the surrogates, which are not characters
  return `(name_key >= ${add(text)} and name_key < ${add(chars.join('') + String.fromCodePoint(next))})`;
}

/**
 * D23 D45: live customers with this email or the same phone number (one's digits, at least 7, end the
 * other's: with or without a country code; extensions aside), for the warning while typing. The number's
 * last 7 digits are indexed (phone_tail), so the look-up reads only the numbers that could match.
 */
export async function findDuplicates(db: Queryable, orgId: number, email: string | null, phone: string | null, exclude: number | null): Promise<DuplicateMatch[]> {
  const digits = phone ? phoneDigits(phone) : '';
  const mail = email?.trim().toLowerCase() || null;
  if (!mail && digits.length < PHONE_MATCH_DIGITS) return [];
  const rows = await db.query<{ id: unknown; name: string; email: string | null; phone: string | null; by_email: boolean }>(
    `select id, name, email, phone, (email = $2) as by_email from customers
      where org_id = $1 and deleted_at is null and id <> coalesce($4, 0)
        and (email = $2 or (phone_tail = right($3::text, ${PHONE_MATCH_DIGITS}) and (phone_digits like '%' || $3::text or $3::text like '%' || phone_digits)))
      order by name_key, id limit 5`,
    [orgId, mail, digits.length >= PHONE_MATCH_DIGITS ? digits : null, exclude],
  );
  return rows.map((r) => ({ id: num(r.id), name: r.name, email: r.email, phone: r.phone, match: r.by_email ? 'email' : 'phone' }));
}

// ---- D45 tag suggestions ----

/** At most this many tags are suggested at a time. */
export const TAG_SUGGESTIONS = 20;

/**
 * D45: the organization's tags that contain `q` (folded: case and accents ignored), most used first, from
 * customer_tags (kept by triggers, migration 8), so typing reads a few rows, not every customer's tags.
 */
export async function suggestTags(db: Queryable, orgId: number, q: string | null): Promise<string[]> {
  const rows = await db.query<{ tag: string }>(
    `select tag from customer_tags where org_id = $1 and n > 0 and tag_key like $2
      order by (tag_key like $3) desc, n desc, tag_key limit ${TAG_SUGGESTIONS}`,
    [orgId, containsPattern(fold(q ?? '')), `${fold(q ?? '').replace(/[\\%_]/g, '\\$&')}%`],
  );
  return rows.map((r) => r.tag);
}
