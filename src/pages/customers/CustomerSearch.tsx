// The list's search box: keeps what the person types, and reports the trimmed text once they pause
// (or press Enter). A change of `value` from outside (Back, a link) replaces the text.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { SEARCH_MAX_LENGTH } from '../../../contract/customers';

export const SEARCH_DEBOUNCE_MS = 250;

export function CustomerSearch({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  /** The last search reported or received: typing that settles back on it sends nothing. */
  const sent = useRef(value);

  useEffect(() => {
    if (value === sent.current) return; // our own search coming back through the URL
    sent.current = value;
    setText(value);
  }, [value]);

  const report = (raw: string) => {
    const q = raw.trim();
    if (q === sent.current) return;
    sent.current = q;
    onSearch(q);
  };

  useEffect(() => {
    if (text.trim() === sent.current) return;
    const timer = setTimeout(() => report(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // report reads the latest onSearch through this render's closure; the text is what matters.
  }, [text]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    report(text);
  };

  return (
    <form role="search" className="list-search" onSubmit={submit}>
      <label htmlFor={id}>Search customers</label>
      <input
        id={id}
        type="search"
        value={text}
        maxLength={SEARCH_MAX_LENGTH}
        placeholder="Name, email or phone"
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
      />
    </form>
  );
}
