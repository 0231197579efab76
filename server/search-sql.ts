// D45: the SQL twins of contract/matching.ts, so stored text is folded and phone digits are taken exactly as
// the app and the server fold a search (test/server/customers-search.test.ts compares both on each database).
import { FOLD_TABLE } from '../contract/matching';

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * crm_fold(text): FOLD_TABLE as SQL. Two-letter foldings (ß → ss) by replace(), then one translate() for the
 * rest (characters with no counterpart in its last argument are removed: the combining marks). translate()
 * reads its whole table for each character, so ASCII text (most of it) takes a 26-letter one instead.
 */
export function foldFunctionSql(): string {
  const pairs = [...FOLD_TABLE];
  const doubles = pairs.filter(([, to]) => to.length === 2);
  const singles = pairs.filter(([, to]) => to.length === 1);
  const removed = pairs.filter(([, to]) => to.length === 0);
  const from = [...singles, ...removed].map(([f]) => f).join('');
  const to = singles.map(([, t]) => t).join('');
  let body = '$1';
  for (const [f, t] of doubles) body = `replace(${body}, ${literal(f)}, ${literal(t)})`;
  return `create function crm_fold(t text) returns text language sql immutable strict parallel safe as $fold$
    select case when octet_length($1) = char_length($1)
                then translate($1, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
                else translate(${body}, ${literal(from)}, ${literal(to)}) end
  $fold$`;
}

/** crm_phone_digits(text): the number's digits without its extension (contract `phoneDigits`). */
export const PHONE_DIGITS_FUNCTION_SQL = `create function crm_phone_digits(phone text) returns text language sql immutable parallel safe as $phone$
    select regexp_replace(regexp_replace(coalesce($1, ''), '(ext|x|#).*$', '', 'i'), '[^0-9]', '', 'g')
  $phone$`;
