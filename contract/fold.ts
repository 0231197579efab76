// D45 folding: case and accents, shared by the app and the server (mirrored by SQL functions of the schema:
// server/search-sql.ts). A module of its own, so a bundle that checks only emails and phones
// (contract/matching.ts) does not carry the table.

/**
 * Letters that do not decompose into a base letter and marks (lower case), and the letters people type for
 * them; D43 D45: then the typographic quotes and dashes (what a word processor or Excel puts in 'O’Brien')
 * and the keys people type for them, so `O'Brien` finds `O’Brien` and the other way round.
 */
export const FOLD_SPECIAL: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ĳ: 'ij',
  þ: 'th',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  ħ: 'h',
  ı: 'i',
  ŧ: 't',
  ŋ: 'n',
  ƒ: 'f',
  ς: 'σ',
  '\u2018': "'", // ‘
  '\u2019': "'", // ’
  '\u02bc': "'", // ʼ
  '\u201c': '"', // “
  '\u201d': '"', // ”
  '\u2013': '-', // –
  '\u2014': '-', // —
};
/** FOLD_SPECIAL's keys as one pattern, made at the first fold (so a bundle that never folds leaves the table out). */
let specialChars: RegExp | null = null;
/** Combining diacritical marks: what a decomposed accent is made of. */
const MARKS = /[\u0300-\u036f]/g;
const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * D45: text as search compares it: decomposed (NFD), without combining marks, lower case, and FOLD_SPECIAL's
 * letters and marks written as people type them ('Ørsted' → 'orsted', 'Straße' → 'strasse', 'O’Brien' →
 * "o'brien"). The SQL twin is `crm_fold` (server/search-sql.ts); a change here needs a migration that makes
 * it anew and refolds the stored text (as migration 18 did).
 */
export function fold(text: string): string {
  if (!NOT_ASCII.test(text)) return text.toLowerCase();
  specialChars ??= new RegExp(`[${Object.keys(FOLD_SPECIAL).join('')}]`, 'g');
  return text
    .normalize('NFD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(specialChars, (c) => FOLD_SPECIAL[c] ?? c);
}
