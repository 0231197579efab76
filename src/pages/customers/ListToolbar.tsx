// D26: the list's search (as the person types, debounced), status and tag filters, and page size.
// Typed filters replace the history entry (no entry per keystroke); chosen ones add one, for Back.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { CUSTOMER_STATUSES, PAGE_SIZES, SEARCH_MAX_LENGTH, TAG_MAX_LENGTH, type CustomerSort } from '../../../contract/customers';
import type { ListState, PageSize } from './list-params';

/** D26: search starts this long after the last keystroke (Enter searches at once). */
export const SEARCH_DEBOUNCE_MS = 300;

export const STATUS_LABELS = { lead: 'Lead', active: 'Active', inactive: 'Inactive' } as const;

type Change = (patch: Partial<ListState>, opts?: { replace?: boolean }) => void;

/** A text filter that keeps what is typed and reports the trimmed text once the person pauses. */
function TextFilter(props: { label: string; value: string; onCommit: (v: string) => void; type?: 'search' | 'text'; maxLength: number; placeholder?: string }) {
  const { label, value, onCommit, type = 'text', maxLength, placeholder } = props;
  const id = useId();
  const [text, setText] = useState(value);
  /** The last value reported or received: typing that settles back on it sends nothing. */
  const sent = useRef(value);

  useEffect(() => {
    if (value === sent.current) return; // our own value coming back through the URL
    sent.current = value;
    setText(value); // Back, a link, Clear filters
  }, [value]);

  const commit = (raw: string) => {
    const v = raw.trim();
    if (v === sent.current) return;
    sent.current = v;
    onCommit(v);
  };

  useEffect(() => {
    if (text.trim() === sent.current) return;
    const timer = setTimeout(() => commit(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // commit reads this render's onCommit; the text is what matters.
  }, [text]);

  return (
    <div className="list-field" data-wide={type === 'search' || undefined}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={text}
        maxLength={maxLength}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && commit(text)}
      />
    </div>
  );
}

/** The list's sorts in words, for the phone-width 'Sort by' menu (the table's headers sort elsewhere). */
export const SORT_LABELS: Record<CustomerSort, string> = {
  name: 'Name, A–Z',
  '-name': 'Name, Z–A',
  '-created_at': 'Newest first',
  created_at: 'Oldest first',
  '-updated_at': 'Recently updated',
  updated_at: 'Least recently updated',
};

function SelectFilter({ label, value, onChange, children, className = 'list-field' }: { label: string; value: string | number; onChange: (v: string) => void; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  );
}

export function ListToolbar({ state, onChange }: { state: ListState; onChange: Change }) {
  // Every filter starts again at page 1.
  const typed = (patch: Partial<ListState>) => onChange({ ...patch, page: 1 }, { replace: true });
  return (
    <div role="search" aria-label="Filter customers" className="list-filters">
      <TextFilter
        label="Search customers"
        type="search"
        value={state.q}
        maxLength={SEARCH_MAX_LENGTH}
        placeholder="Name, company, email or phone"
        onCommit={(q) => typed({ q })}
      />
      <SelectFilter label="Status" value={state.status} onChange={(v) => onChange({ status: v as ListState['status'], page: 1 })}>
        <option value="">All statuses</option>
        {CUSTOMER_STATUSES.map((s) => (
          <option key={s} value={s}>
            {STATUS_LABELS[s]}
          </option>
        ))}
      </SelectFilter>
      <TextFilter label="Tag" value={state.tag} maxLength={TAG_MAX_LENGTH} onCommit={(tag) => typed({ tag })} />
      {/* Under 640px the table's header row, with its sort buttons, is out of sight: this menu sorts instead. */}
      <SelectFilter label="Sort by" className="list-field list-sort" value={state.sort} onChange={(v) => onChange({ sort: v as CustomerSort, page: 1 })}>
        {(Object.keys(SORT_LABELS) as CustomerSort[]).map((s) => (
          <option key={s} value={s}>
            {SORT_LABELS[s]}
          </option>
        ))}
      </SelectFilter>
      <SelectFilter label="Per page" value={state.pageSize} onChange={(v) => onChange({ pageSize: Number(v) as PageSize, page: 1 })}>
        {PAGE_SIZES.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </SelectFilter>
    </div>
  );
}
