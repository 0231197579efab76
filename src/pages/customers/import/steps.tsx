// D27 D60 the import's first and last steps (choose a file; the summary), and the heading each step focuses.
import { useEffect, useId, useRef, type ChangeEvent } from 'react';
import type { ImportResult } from '../../../../contract/customers';
import { Link } from '../../../router/Link';
import { PAGES } from '../../../router/paths';
import { ChangedSincePreview, resultText } from './words';

/** D15: a step's heading takes the focus when the step appears, so the change is heard and seen. */
export function StepHeading({ id, children }: { id: string; children: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h2 id={id} ref={ref} tabIndex={-1}>
      {children}
    </h2>
  );
}

export function ChooseFile({ error, onFile }: { error: string | null; onFile: (file: File) => void }) {
  const id = useId();
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ''; // choosing the same file again (after fixing it) is a change too
    if (file) onFile(file);
  };
  return (
    <section className="card import-step" aria-labelledby={`${id}h`}>
      <h2 id={`${id}h`}>Choose a file</h2>
      <p className="muted" id={`${id}d`}>
        A CSV file of at most 5 MB and 10,000 rows with a header row: an export from Google Contacts, Outlook, a spreadsheet or another system. You choose what each
        column imports into, and see every row before anything is saved.
      </p>
      <div className="import-file">
        <label htmlFor={id}>CSV file</label>
        <input
          id={id}
          type="file"
          accept=".csv,text/csv"
          onChange={onChange}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}d ${id}e` : `${id}d`}
        />
      </div>
      {error && (
        <p id={`${id}e`} className="write-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

export function Done({ result, onRestart }: { result: ImportResult; onRestart: () => void }) {
  const id = useId();
  return (
    <section className="card import-step" aria-labelledby={`${id}h`}>
      <StepHeading id={`${id}h`}>Import finished</StepHeading>
      <p className="import-result">{resultText(result)}</p>
      <ChangedSincePreview customers={result.changed_since_preview ?? []} />
      <div className="import-actions">
        <Link to={PAGES.customers} className="btn btn-primary">
          Back to Customers
        </Link>
        <button type="button" className="btn" onClick={onRestart}>
          Import another file
        </button>
      </div>
    </section>
  );
}
