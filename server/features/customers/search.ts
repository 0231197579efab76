// D23 D45: the duplicate warning and the tag filter's suggestions: SQL over the indexed columns of
// migration 8 (phone_digits, phone_tail; customer_tags), every query scoped by organization. How a search
// matches, and the list itself, are in server/customer-list.ts (the dashboard lists customers too).
import { seen, type CustomerScope } from '../../customer-scope';
import type { DuplicateMatch } from '../../../contract/customers';
import { fold } from '../../../contract/fold';
import { PHONE_MATCH_DIGITS, phoneDigits } from '../../../contract/matching';
import { containsPattern } from '../../customer-list';
import type { Queryable } from '../../db';
import { num } from '../../db';

/**
 * D23 D45: live customers with this email, the same phone number (one's digits, at least 7, end the
 * other's: with or without a country code; extensions aside) or this name (case and accents folded,
 * migration 18's index), for the warning while typing. The number's last 7 digits are indexed (phone_tail),
 * so the look-up reads only the numbers that could match. D47: a customer's contacts' emails and phones
 * match too, named in `contact`. Each customer is reported by its strongest match (its own email, its own
 * phone, a contact's, then its name); those matched by name alone come last.
 */
export async function findDuplicates(
  db: Queryable,
  scope: CustomerScope,
  email: string | null,
  phone: string | null,
  exclude: number | null,
  name: string | null = null,
): Promise<DuplicateMatch[]> {
  const digits = phone ? phoneDigits(phone) : '';
  const mail = email?.trim().toLowerCase() || null;
  const named = name?.trim() ? fold(name.trim()) : null;
  if (!mail && digits.length < PHONE_MATCH_DIGITS && !named) return [];
  const matches = `(email = $2 or (phone_tail = right($3::text, ${PHONE_MATCH_DIGITS}) and (phone_digits like '%' || $3::text or $3::text like '%' || phone_digits)))`;
  const rows = await db.query<{
    id: unknown;
    name: string;
    email: string | null;
    phone: string | null;
    by: 'email' | 'phone' | 'name';
    contact_id: unknown;
    contact_name: string | null;
  }>(
    `select * from (
       select distinct on (c.id) c.id, c.name, c.email, c.phone, c.name_key, m.by, m.contact_id, m.contact_name, m.rank
         from (select id as customer_id, case when email = $2 then 'email' else 'phone' end as by, null::integer as contact_id, null::text as contact_name, 0 as rank
                 from customers where org_id = $1 and ${matches}
               union all
               select customer_id, case when email = $2 then 'email' else 'phone' end, id, name, 1 from customer_contacts where org_id = $1 and ${matches}
               union all
               select id, 'name', null, null, 2 from customers where org_id = $1 and deleted_at is null and crm_fold(name) = $5) m
         join customers c on c.id = m.customer_id and c.org_id = $1${seen('c', scope)} and c.deleted_at is null and c.id <> coalesce($4, 0)
        order by c.id, m.rank, m.by = 'email' desc, m.contact_id) d
      order by rank = 2, name_key, id limit 5`,
    [scope.orgId, mail, digits.length >= PHONE_MATCH_DIGITS ? digits : null, exclude, named],
  );
  return rows.map((r) => ({
    id: num(r.id),
    name: r.name,
    email: r.email,
    phone: r.phone,
    match: r.by,
    contact: r.contact_id == null ? null : { id: num(r.contact_id), name: r.contact_name ?? '' },
  }));
}

// ---- D45 tag suggestions ----

/** At most this many tags are suggested at a time. */
export const TAG_SUGGESTIONS = 20;

/**
 * D45: the organization's tags that contain `q` (folded: case and accents ignored), most used first, from
 * customer_tags (kept by triggers, migration 8), so typing reads a few rows, not every customer's tags.
 */
export async function suggestTags(db: Queryable, scope: CustomerScope, q: string | null): Promise<string[]> {
  // D59: a scoped member's suggestions come from their own customers' tags (a few thousand at most).
  const rows = await db.query<{ tag: string }>(
    scope.assignedTo === null
      ? `select tag from customer_tags where org_id = $1 and n > 0 and tag_key like $2
          order by (tag_key like $3) desc, n desc, tag_key limit ${TAG_SUGGESTIONS}`
      : `select min(t) as tag from customers c cross join lateral unnest(c.tags) t
          where c.org_id = $1${seen('c', scope)} and c.deleted_at is null and crm_fold(t) like $2
          group by crm_fold(t) order by (crm_fold(t) like $3) desc, count(*) desc, crm_fold(t) limit ${TAG_SUGGESTIONS}`,
    [scope.orgId, containsPattern(fold(q ?? '')), `${fold(q ?? '').replace(/[\\%_]/g, '\\$&')}%`],
  );
  return rows.map((r) => r.tag);
}
