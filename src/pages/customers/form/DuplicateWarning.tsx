// D23: while a person types an email, a phone or a name, the customers who already have it are shown as
// links ("Possible duplicate: …", a warning, never a refusal) before anything is saved. Only a
// complete-looking value is looked up, after a pause in typing; the answer is a polite live region, so it
// is heard without taking the focus. D49: on the edit form, where the person may merge, each match offers
// 'Merge' (the merge screen proposes which is kept, D66, and can swap). The add form has no customer yet
// to merge (behaviour.md).
import { Fragment, useEffect, useState } from 'react';
import { useCustomersApi, type DuplicateQuery } from '../../../api/customers';
import { useQuery } from '../../../query/use-query';
import { Link } from '../../../router/Link';
import { customerHref, mergeCustomersHref } from '../../../router/paths';
import { useCan } from '../../../session/use-session';
import { CONTROL_CHARS, CUSTOMER_TEXT_LIMITS, PHONE_MIN_DIGITS } from '../../../../contract/customers';
import { EMAIL_SHAPE, phoneDigits } from '../../../../contract/matching';

/** D23: the look-up waits for this pause in typing. */
export const DUPLICATE_DEBOUNCE_MS = 400;

/** D23: what of the email, phone and name looks complete enough to look for duplicates (null when nothing). */
export function duplicateQuery(v: { email: string; phone: string; name?: string }): { email?: string; phone?: string; name?: string } | null {
  const email = v.email.trim().toLowerCase();
  const phone = v.phone.trim();
  const name = (v.name ?? '').trim();
  const q: { email?: string; phone?: string; name?: string } = {};
  if (EMAIL_SHAPE.test(email) && email.length <= CUSTOMER_TEXT_LIMITS.email) q.email = email;
  if (phoneDigits(phone).length >= PHONE_MIN_DIGITS && phone.length <= CUSTOMER_TEXT_LIMITS.phone) q.phone = phone;
  if (name && name.length <= CUSTOMER_TEXT_LIMITS.name && !CONTROL_CHARS.test(name)) q.name = name; // the server folds case and accents
  return q.email || q.phone || q.name ? q : null;
}

export interface DuplicateWarningProps {
  email: string;
  phone: string;
  /** D23: the same name (case and accents folded by the server) warns too. */
  name?: string;
  /** The customer being edited, who is not a duplicate of themselves. */
  exclude?: number;
  /** False while the values are the ones the form started from (an edit not yet touched). */
  enabled: boolean;
}

export function DuplicateWarning({ email, phone, name = '', exclude, enabled }: DuplicateWarningProps) {
  const api = useCustomersApi();
  const merge = useCan('customers:merge') && exclude;
  const wanted = enabled ? duplicateQuery({ email, phone, name }) : null;
  const wantedKey = wanted && JSON.stringify(wanted);
  const [query, setQuery] = useState<DuplicateQuery | null>(null);

  useEffect(() => {
    if (!wanted) return setQuery(null); // a value no longer complete: its warning goes at once
    const timer = setTimeout(() => setQuery(exclude ? { ...wanted, exclude } : wanted), DUPLICATE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [wantedKey, exclude]);

  const found = useQuery(api.duplicates(query ?? {}), { enabled: query !== null });
  const matches = (query && found.data?.results) || [];

  return (
    <div className="cf-duplicates" role="status">
      {matches.length > 0 && (
        <p>
          Possible duplicate:{' '}
          {matches.map((m, i) => (
            <Fragment key={m.id}>
              {i > 0 && ', '}
              <Link to={customerHref(m.id)}>{m.name}</Link> (same {m.match}){merge && <Link to={mergeCustomersHref(merge, m.id)}>Merge</Link>}
            </Fragment>
          ))}
        </p>
      )}
    </div>
  );
}
