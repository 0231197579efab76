// D56: the customers list's conditions on custom fields as SQL over `customers` (unaliased, $1 the
// organization). Equals and ranges read customer_custom_values (migration 24: one row per live customer,
// field and value, btree-ordered by value); contains reads the trigram index of custom_key, then the field.
import type { CustomFieldType } from '../contract/custom-fields';
import type { CustomFilterOp } from '../contract/custom-list';
import { fold } from '../contract/fold';

/** A condition checked against the organization's definitions (server/custom-list.ts). */
export interface CustomCondition {
  key: string;
  op: CustomFilterOp;
  type: CustomFieldType;
  /** A number for number fields' equals and ranges; text otherwise ('true'/'false' for yes/no and empty). */
  value: string | number;
  /** A range's other end (its `to`, paired with its `from`). */
  and?: CustomCondition;
}

/** Text values are kept folded and cut to this many characters in customer_custom_values.txt (migration 24). */
export const CUSTOM_TXT_CHARS = 200;

const like = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * D56: the conditions as SQL clauses (to be ANDed), a field's from and to as one range. With `lookUps`,
 * 'is empty' looks each customer up in its own index entry (for a narrow range of customers, where the
 * planner, pricing the range as a third of the table, would hash every value of the field instead).
 */
export function customClauses(conditions: CustomCondition[], add: (v: string | number) => string, lookUps = false): string[] {
  const out: CustomCondition[] = [];
  for (const c of conditions) {
    const from = c.op === 'to' ? out.find((o) => o.key === c.key && o.op === 'from' && !o.and) : undefined;
    if (from) from.and = c;
    else out.push({ ...c });
  }
  return out.map((c) => customClause(c, add, lookUps));
}

/** D56: one condition as SQL; `add` binds a parameter and returns its placeholder. */
function customClause(c: CustomCondition & { and?: CustomCondition }, add: (v: string | number) => string, lookUps: boolean): string {
  const key = add(c.key);
  const has = (cond: string) => `id in (select customer_id from customer_custom_values where org_id = $1 and key = ${key} and ${cond})`;
  const byNumber = c.type === 'number';
  const col = byNumber ? 'num' : 'txt';
  const param = (v: string | number) => (byNumber ? `${add(v)}::numeric` : add(v));
  switch (c.op) {
    case 'empty': {
      // offset 0 keeps the sub-select a look-up per customer (the planner cannot turn it into a join).
      const each = lookUps ? ' offset 0' : '';
      return `${c.value === 'true' ? 'not ' : ''}exists (select 1 from customer_custom_values e where e.org_id = $1 and e.key = ${key} and e.customer_id = customers.id${each})`;
    }
    case 'from':
    case 'to': {
      // Both ends of one field's range are one range of its index (customClauses pairs them).
      const ends = [c, ...(c.and ? [c.and] : [])].map((e) => `${col} ${e.op === 'from' ? '>=' : '<='} ${param(e.value)}`);
      return has(`num is ${byNumber ? 'not' : ''} null and ${ends.join(' and ')}`);
    }
    case 'contains': {
      // The trigram index finds the candidates among every text value; the field's own value decides.
      const p = add(like(fold(String(c.value))));
      return `(custom_key like ${p} and crm_fold(custom ->> ${key}) like ${p})`;
    }
    case 'equals': {
      if (byNumber) return has(`num = ${param(c.value)}`);
      if (c.type !== 'text') return has(`num is null and txt = ${add(c.value)}`);
      // Text equals as names compare (folded). The index holds the first CUSTOM_TXT_CHARS characters: a
      // shorter text equal to them is the whole value; a longer one is checked against the value itself.
      const chars = [...fold(String(c.value))];
      const first = has(`num is null and txt = ${add(chars.slice(0, CUSTOM_TXT_CHARS).join(''))}`);
      return chars.length < CUSTOM_TXT_CHARS ? first : `(${first} and crm_fold(custom ->> ${key}) = ${add(chars.join(''))})`;
    }
  }
}

/**
 * D56: a search's match in a custom text field: custom_key (every string value of the record, folded,
 * trigram-indexed) finds the candidates; the value must then be one of a live text field's.
 */
export const customSearch = (pattern: string) =>
  `(custom_key like ${pattern} and exists (select 1 from jsonb_each_text(custom) v
     where crm_fold(v.value) like ${pattern}
       and v.key in (select f.key from custom_fields f where f.org_id = $1 and f.record_kind = 'customer' and f.type in ('text', 'long_text')
                        and f.archived_at is null and f.deleted_at is null)))`;
