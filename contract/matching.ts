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

// ---- D45 folding: case and accents ----

/** Letters that do not decompose into a base letter and marks, and the letters people type for them. */
const SPECIAL: Record<string, string> = {
  ß: 'ss', ẞ: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', ø: 'o', Ø: 'o', ł: 'l', Ł: 'l', đ: 'd', Đ: 'd', ð: 'd', Ð: 'd',
  þ: 'th', Þ: 'th', ħ: 'h', Ħ: 'h', ı: 'i', ŧ: 't', Ŧ: 't', ĳ: 'ij', Ĳ: 'ij', ŋ: 'n', Ŋ: 'n', ƒ: 'f', ς: 'σ',
};
/** Blocks whose letters are folded: Latin-1, Latin Extended-A and -B, Greek, Cyrillic, Latin Extended Additional. */
const FOLDED_BLOCKS: [number, number][] = [[0xc0, 0x24f], [0x370, 0x3ff], [0x400, 0x4ff], [0x1e00, 0x1eff]];
/** Combining diacritical marks (what decomposed accents are made of): removed. */
const MARKS: [number, number] = [0x300, 0x36f];

/**
 * Each folded character and what it becomes: A–Z to a–z; a letter of FOLDED_BLOCKS to its lower-case base
 * letter (or SPECIAL's letters); a combining mark to nothing. Characters not listed stay as they are.
 * NEVER change this table without a migration: the schema's crm_fold (made from it) keeps stored text folded.
 */
export const FOLD_TABLE: ReadonlyMap<string, string> = (() => {
  const table = new Map<string, string>();
  for (let c = 0x41; c <= 0x5a; c++) table.set(String.fromCharCode(c), String.fromCharCode(c + 32));
  for (const [from, to] of FOLDED_BLOCKS) {
    for (let c = from; c <= to; c++) {
      const ch = String.fromCodePoint(c);
      const folded = SPECIAL[ch] ?? ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
      if (folded !== ch && ((folded.length === 1 && !/[\u0300-\u036f]/.test(folded)) || /^[a-z]{2}$/.test(folded))) {
        table.set(ch, folded);
      }
    }
  }
  for (let c = MARKS[0]; c <= MARKS[1]; c++) table.set(String.fromCharCode(c), '');
  return table;
})();

const FOLDABLE = /[A-Z\u00c0-\u024f\u0300-\u036f\u0370-\u04ff\u1e00-\u1eff]/;

/** D45: text as search compares it: lower case, without accents ('Ørsted' → 'orsted'). */
export function fold(text: string): string {
  if (!FOLDABLE.test(text)) return text;
  let out = '';
  for (const ch of text) out += FOLD_TABLE.get(ch) ?? ch;
  return out;
}
