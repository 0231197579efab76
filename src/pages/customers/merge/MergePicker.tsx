// D49: the customer search of 'Merge with…': the customers list's search (D26 `q`), this customer left
// out; each result is a link to the merge screen with this customer kept (the screen can swap). The
// dialog traps the focus, starts in the search box, and Escape or Cancel closes it.
import { useEffect, useId, useState } from 'react';
import { type Customer, SEARCH_MAX_LENGTH } from '../../../../contract/customers';
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

export default function MergePicker({ customer, onCancel }: { customer: Pick<Customer, 'id' | 'name'>; onCancel: () => void }) {
  const api = useCustomersApi();
  const id = useId();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), PICKER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const found = useQuery(api.list({ q, page_size: PICKER_RESULTS }), { enabled: q !== '' });
  const results = (q && found.data?.results.filter((c) => c.id !== customer.id)) || [];

  let status = '';
  if (q && found.status === 'error') status = loadWords(found.error, 'customers');
  else if (q && found.data?.count && found.data.count > PICKER_RESULTS) status = `More than ${PICKER_RESULTS} found: type more to narrow them.`;
  else if (q && found.data) status = results.length ? `${results.length} found` : 'No other customer matches.';
  else if (q) status = 'Searching…';

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
      {results.length > 0 && (
        <ul className="merge-picker-results" aria-label="Customers found">
          {results.map((c) => (
            <li key={c.id}>
              <Link to={mergeCustomersHref(customer.id, c.id)}>
                {c.name} <span className="muted">{[c.email, c.phone, c.city].filter(Boolean).join(' · ')}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
