// Migration 18, released: never edit it (a database that ran it keeps what it did); add the next version.
import { foldFunctionSql } from '../search-sql';
import { FOLD_LETTERS_8 } from './008-search-as-people-write';
import type { Migration } from './migration';

/** D45 as of migration 18, frozen: the typographic marks crm_fold writes as typed (the marks of contract FOLD_SPECIAL). */
const FOLD_PUNCTUATION_17: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u02bc': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2013': '-',
  '\u2014': '-',
};
/** A regular expression matching any of them: the rows whose folded text changes. */
const MARKED = `'[${Object.keys(FOLD_PUNCTUATION_17).join('')}]'`;

const customerText = `name || ' ' || coalesce(company, '') || ' ' || coalesce(email, '') || ' ' || coalesce(address_line, '') || ' ' || coalesce(city, '') || ' ' ||
  coalesce(region, '') || ' ' || coalesce(postal_code, '') || ' ' || coalesce(country, '') || ' ' || array_to_string(tags, ' ')`;
const locationText = `coalesce(label, '') || ' ' || coalesce(address_line, '') || ' ' || coalesce(city, '') || ' ' || coalesce(region, '') || ' ' ||
  coalesce(postal_code, '') || ' ' || coalesce(country, '')`;

export const migration018: Migration = {
  version: 18,
  name: "D43 D45 D23 curly quotes and dashes fold as typed (O’Brien is O'Brien), stored text folded anew; names compared folded",
  statements: [
    // D43 D45: a Windows-1252 file brings ’ “ ” – — (Excel writes them), people type ' " -: both fold alike.
    foldFunctionSql({ ...FOLD_LETTERS_8, ...FOLD_PUNCTUATION_17 }, true),
    // Only rows holding one of the marks fold differently, so only they are written again: setting a column
    // a generated column reads makes it anew (search_key, tag_keys), and the parts' triggers (migration 15)
    // make their customer's parts_key anew. One statement per table; no version or updated_at moves.
    `update customers set name = name, tags = tags where (${customerText}) ~ ${MARKED}`,
    `update customer_locations set label = label where (${locationText}) ~ ${MARKED}`,
    `update customer_contacts set name = name where (name || ' ' || coalesce(email, '')) ~ ${MARKED}`,
    // The tag counts (migration 8) under their new keys, added to a key the same tag typed plainly has.
    `insert into customer_tags (org_id, tag_key, tag, n)
       select org_id, crm_fold(tag_key), min(tag), sum(n) from customer_tags where tag_key ~ ${MARKED}
        group by org_id, crm_fold(tag_key) order by org_id, crm_fold(tag_key)
     on conflict (org_id, tag_key) do update
       set n = customer_tags.n + excluded.n, tag = case when customer_tags.n > 0 then customer_tags.tag else excluded.tag end`,
    `delete from customer_tags where tag_key ~ ${MARKED}`,
    `reindex index customers_org_lead_source_idx`,
    // D23: a live customer's name, folded, for the duplicate warning ('renee o''brien' finds 'Renée O’Brien').
    `create index customers_org_name_fold_idx on customers (org_id, crm_fold(name)) where deleted_at is null`,
  ],
};
