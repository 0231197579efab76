// D45: the SQL twins of contract/fold.ts and contract/matching.ts, so stored text is folded and phone digits are taken exactly as
// the app and the server fold a search (test/server/customers-search.test.ts compares both on each database).

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Blocks whose capitals a database in the C locale leaves as they are (its lower() knows only A–Z). */
const CASED_BLOCKS: [number, number][] = [
  [0xc0, 0x24f],
  [0x370, 0x3ff],
  [0x400, 0x4ff],
  [0x1e00, 0x1eff],
];

/** Capitals that do not decompose, and their small letters (what lower() does in a Unicode-aware locale). */
function capitals(): [string, string] {
  let from = '';
  let to = '';
  for (const [first, last] of CASED_BLOCKS) {
    for (let c = first; c <= last; c++) {
      const ch = String.fromCodePoint(c);
      const small = ch.toLowerCase();
      if (small !== ch && small.length === 1 && ch.normalize('NFD') === ch) {
        from += ch;
        to += small;
      }
    }
  }
  return [from, to];
}

/**
 * crm_fold(text): contract `fold` over the given table of special letters and marks, in PL/pgSQL (cheaper
 * per call than translate() over a long table: ASCII text, most of it, is lower() alone). Where the
 * database's lower() knows only A–Z (the C locale), the capitals of CASED_BLOCKS are lowered by a table,
 * so stored text folds alike whatever the locale. `replace` for a migration that makes it anew.
 */
export function foldFunctionSql(special: Readonly<Record<string, string>>, replace = false): string {
  const [upper, lower] = capitals();
  const doubles = Object.entries(special).filter(([, to]) => to.length === 2);
  const singles = Object.entries(special).filter(([, to]) => to.length === 1);
  let replaced = 't';
  for (const [f, to] of doubles) replaced = `replace(${replaced}, ${literal(f)}, ${literal(to)})`;
  return `create ${replace ? 'or replace ' : ''}function crm_fold(t text) returns text language plpgsql immutable strict parallel safe as $fold$
     begin
       if octet_length(t) = char_length(t) then
         return lower(t);
       end if;
       t := lower(regexp_replace(normalize(t, NFD), '[\u0300-\u036f]', '', 'g'));
       if lower(${literal('\u0416')}) <> ${literal('\u0436')} then
         t := translate(t, ${literal(upper)}, ${literal(lower)});
       end if;
       return translate(${replaced}, ${literal(singles.map(([f]) => f).join(''))}, ${literal(singles.map(([, to]) => to).join(''))});
     end $fold$`;
}

/** crm_fold(text) (over `special`) and crm_fold_tags(text[]) (each tag folded), as migration 8 made them. */
export function foldFunctionsSql(special: Readonly<Record<string, string>>): string[] {
  return [
    foldFunctionSql(special),
    // Its own search_path: a restore computes generated columns with an empty one, and this calls crm_fold.
    `create function crm_fold_tags(tags text[]) returns text[] language sql immutable strict parallel safe set search_path from current as $tags$
       select coalesce(array_agg(crm_fold(u.t) order by u.n), '{}') from unnest($1) with ordinality as u(t, n)
     $tags$`,
  ];
}

/** crm_phone_digits(text): the number's digits without its extension (contract `phoneDigits`). */
export const PHONE_DIGITS_FUNCTION_SQL = `create function crm_phone_digits(phone text) returns text language sql immutable parallel safe as $phone$
    select regexp_replace(regexp_replace(coalesce($1, ''), '(ext|x|#).*$', '', 'i'), '[^0-9]', '', 'g')
  $phone$`;
