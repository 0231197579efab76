// D26: the list's search (as the person types, debounced), status and tag filters, and page size; D48:
// the type filter and 'Do not service only'; D32: 'Added since' as a chip that removes it.
// Typed filters replace the history entry (no entry per keystroke); chosen ones add one, for Back.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import {
  CUSTOMER_STATUS_LABELS,
  CUSTOMER_STATUSES,
  CUSTOMER_TYPE_LABELS,
  CUSTOMER_TYPES,
  PAGE_SIZES,
  SEARCH_MAX_LENGTH,
  TAG_MAX_LENGTH,
  type CustomerSort,
} from '../../../contract/customers';
import { useCustomersApi } from '../../api/customers';
import { useQuery } from '../../query/use-query';
import { absoluteTime } from '../../ui/when';
import type { ListState, PageSize } from './list-params';

/** D26: search starts this long after the last keystroke (Enter searches at once). */
export const SEARCH_DEBOUNCE_MS = 300;

type Change = (patch: Partial<ListState>, opts?: { replace?: boolean }) => void;

/** A text filter that keeps what is typed and reports the trimmed text once the person pauses. */
interface TextFilterProps {
  label: string;
  value: string;
  onCommit: (v: string) => void;
  type?: 'search' | 'text';
  maxLength: number;
  placeholder?: string;
  /** D45: choices offered as one types (a native datalist: keyboard and screen-reader operable). */
  suggestions?: { onType: (text: string) => void; onFocus: () => void; options: readonly string[] };
}

function TextFilter(props: TextFilterProps) {
  const { label, value, onCommit, type = 'text', maxLength, placeholder, suggestions } = props;
  const listId = useId();
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
        list={suggestions ? listId : undefined}
        onFocus={suggestions?.onFocus}
        onChange={(e) => {
          setText(e.target.value);
          suggestions?.onType(e.target.value);
          // A suggestion chosen (or typed out in full) filters at once.
          if (suggestions?.options.includes(e.target.value)) commit(e.target.value);
        }}
        onKeyDown={(e) => e.key === 'Enter' && commit(text)}
      />
      {suggestions && (
        <datalist id={listId}>
          {suggestions.options.map((o) => (
            <option key={o} value={o} />
          ))}
        </datalist>
      )}
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
  status: 'Status, A–Z', // D48
  '-status': 'Status, Z–A',
  city: 'Service city, A–Z',
  '-city': 'Service city, Z–A',
};

function SelectFilter({
  label,
  value,
  onChange,
  children,
  className = 'list-field',
}: {
  label: string;
  value: string | number;
  onChange: (v: string) => void;
  children: ReactNode;
  className?: string;
}) {
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

/** D45: the tag filter (case and accents ignored by the server), suggesting the organization's tags. */
function TagFilter({ value, onCommit }: { value: string; onCommit: (tag: string) => void }) {
  const api = useCustomersApi();
  const [typed, setTyped] = useState(value);
  const [asked, setAsked] = useState<string | null>(null);
  // Asked once the person works in the field, a moment after each keystroke: not for every list shown.
  useEffect(() => {
    if (asked === null && typed === value) return;
    const timer = setTimeout(() => setAsked(typed.trim()), TAG_SUGGEST_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const found = useQuery(api.tags(asked ?? ''), { enabled: asked !== null, keepPrevious: true });
  const options = asked === null ? [] : (found.data?.results ?? []);
  return (
    <TextFilter
      label="Tag"
      value={value}
      maxLength={TAG_MAX_LENGTH}
      onCommit={onCommit}
      suggestions={{ onType: setTyped, onFocus: () => setAsked((a) => a ?? typed.trim()), options }}
    />
  );
}

/** D45: tag suggestions are asked for this long after the last keystroke. */
export const TAG_SUGGEST_DEBOUNCE_MS = 150;

/** D56 `customSorts`: by the custom columns shown, for the phone-width 'Sort by' menu. */
export function ListToolbar({ state, onChange, customSorts = [] }: { state: ListState; onChange: Change; customSorts?: { value: string; label: string }[] }) {
  // Every filter starts again at page 1.
  const typed = (patch: Partial<ListState>) => onChange({ ...patch, page: 1 }, { replace: true });
  return (
    <div role="search" aria-label="Filter customers" className="list-filters">
      <TextFilter
        label="Search customers"
        type="search"
        value={state.q}
        maxLength={SEARCH_MAX_LENGTH}
        placeholder="Name, email, phone or address"
        onCommit={(q) => typed({ q })}
      />
      <SelectFilter label="Status" value={state.status} onChange={(v) => onChange({ status: v as ListState['status'], page: 1 })}>
        <option value="">All statuses</option>
        {CUSTOMER_STATUSES.map((s) => (
          <option key={s} value={s}>
            {CUSTOMER_STATUS_LABELS[s]}
          </option>
        ))}
      </SelectFilter>
      <TagFilter value={state.tag} onCommit={(tag) => typed({ tag })} />
      <SelectFilter label="Type" value={state.type} onChange={(v) => onChange({ type: v as ListState['type'], page: 1 })}>
        <option value="">All types</option>
        {CUSTOMER_TYPES.map((t) => (
          <option key={t} value={t}>
            {CUSTOMER_TYPE_LABELS[t]}
          </option>
        ))}
      </SelectFilter>
      <label className="check list-check">
        <input type="checkbox" checked={state.doNotService} onChange={(e) => onChange({ doNotService: e.target.checked, page: 1 })} />
        Do not service only
      </label>
      {/* Under 640px the table's header row, with its sort buttons, is out of sight: this menu sorts instead. */}
      <SelectFilter label="Sort by" className="list-field list-sort" value={state.sort} onChange={(v) => onChange({ sort: v as ListState['sort'], page: 1 })}>
        {(Object.keys(SORT_LABELS) as CustomerSort[]).map((s) => (
          <option key={s} value={s}>
            {SORT_LABELS[s]}
          </option>
        ))}
        {customSorts.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
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
      {state.createdSince && (
        <p className="list-chip">
          Added since {absoluteTime(state.createdSince)}
          <button type="button" aria-label="Remove the filter Added since" onClick={() => onChange({ createdSince: '', page: 1 })}>
            ×
          </button>
        </p>
      )}
    </div>
  );
}
