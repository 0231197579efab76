// D49: the customer search of 'Merge with…': the customers list's search (D26 `q`), this customer left
// out; each result is a link to the merge screen with this customer first (the screen proposes which one
// is kept, D66, and can swap). D23: the likely duplicates (the same email, phone or name) come first, each
// with why, and are offered before anything is typed. The dialog traps the focus, starts in the search
// box, and Escape or Cancel closes it.
import { useEffect, useId, useState } from 'react';
import { type Customer, type DuplicateMatch, SEARCH_MAX_LENGTH } from '../../../../contract/customers';
import { useCustomersApi } from '../../../api/customers';
import { useQuery } from '../../../query/use-query';
import { Link } from '../../../router/Link';
import { mergeCustomersHref } from '../../../router/paths';
import { Dialog } from '../../../ui/dialog';
import { loadWords } from '../../../ui/error-words';

/** The search waits for this pause in typing (as the list's does). */
export const PICKER_DEBOUNCE_MS = 300;
/** At most this many customers are offered; typing more narrows them. */
export const PICKER_RESULTS = 10;

/** D23: why a customer is a likely duplicate, in words ('Same phone', 'Same email as contact Pat Lee'). */
export const duplicateWhy = (m: Pick<DuplicateMatch, 'match' | 'contact'>): string => `Same ${m.match}${m.contact ? ` as their contact ${m.contact.name}` : ''}`;

interface Offer {
  id: number;
  name: string;
  details: (string | null)[];
  why: string | null;
}

export default function MergePicker({ customer, onCancel }: { customer: Pick<Customer, 'id' | 'name' | 'email' | 'phone'>; onCancel: () => void }) {
  const api = useCustomersApi();
  const id = useId();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), PICKER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const found = useQuery(api.list({ q, page_size: PICKER_RESULTS }), { enabled: q !== '' });
  const likely = useQuery(api.duplicates({ email: customer.email ?? undefined, phone: customer.phone ?? undefined, name: customer.name, exclude: customer.id }));
  const duplicates = likely.data?.results.filter((m) => m.id !== customer.id) ?? [];
  const whyOf = new Map(duplicates.map((m) => [m.id, duplicateWhy(m)]));

  let offers: Offer[];
  if (q) {
    const results = found.data?.results.filter((c) => c.id !== customer.id) ?? [];
    offers = results.map((c) => ({ id: c.id, name: c.name, details: [c.email, c.phone, c.city], why: whyOf.get(c.id) ?? null }));
    const rank = (o: Offer) => (o.why === null ? duplicates.length : duplicates.findIndex((m) => m.id === o.id));
    offers.sort((a, b) => rank(a) - rank(b)); // the likely duplicates as offered before typing, then the list's order
  } else offers = duplicates.map((m) => ({ id: m.id, name: m.name, details: [m.email, m.phone], why: whyOf.get(m.id) ?? null }));

  let status = '';
  if (q && found.status === 'error') status = loadWords(found.error, 'customers');
  else if (q && found.data?.count && found.data.count > PICKER_RESULTS) status = `More than ${PICKER_RESULTS} found: type more to narrow them.`;
  else if (q && found.data) status = offers.length ? `${offers.length} found` : 'No other customer matches.';
  else if (q) status = 'Searching…';
  else if (offers.length) status = `${offers.length === 1 ? '1 likely duplicate' : `${offers.length} likely duplicates`}: the same email, phone or name.`;

  return (
    <Dialog
      title={`Merge ${customer.name} with…`}
      onCancel={onCancel}
      actions={
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      }
    >
      <p>Find the other customer. Next you choose which one is kept and which values stay.</p>
      <div className="field">
        <label htmlFor={id}>Search customers</label>
        <input id={id} type="search" value={text} maxLength={SEARCH_MAX_LENGTH} onChange={(e) => setText(e.target.value)} data-autofocus autoComplete="off" />
      </div>
      <p role="status" className="muted">
        {status}
      </p>
      {offers.length > 0 && (
        <ul className="merge-picker-results" aria-label={q ? 'Customers found' : 'Likely duplicates'}>
          {offers.map((c) => (
            <li key={c.id}>
              <Link to={mergeCustomersHref(customer.id, c.id)}>
                {c.name}{' '}
                {c.why && (
                  <>
                    <span className="merge-why">{c.why}</span>{' '}
                  </>
                )}
                <span className="muted">{c.details.filter(Boolean).join(' · ')}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
