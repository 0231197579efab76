// D27 Import (customers/import, customers:create): upload a CSV, preview each row with its errors and
// duplicates, choose to skip or update the duplicates, commit, and read the summary. Nothing is written
// until the commit, and the commit writes all rows or none.
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import type { ImportDuplicateMode, ImportPreview, ImportPreviewRow, ImportResult } from '../../../contract/customers';
import { useCustomersApi } from '../../api/customers';
import { useMutation } from '../../query/use-query';
import { Link } from '../../router/Link';
import { PAGES } from '../../router/paths';
import { useCan } from '../../session/use-session';
import { Page } from '../../ui/page';
import { Spinner } from '../../ui/spinner';
import { toast } from '../../ui/toast';
import { importErrorMessage, invalidRows } from './import/errors';
import { fileProblem } from './import/file-check';
import { PreviewTable, shownRows } from './import/PreviewTable';
import { ChangedSincePreview, readAsText, resultText } from './import/words';

const rowsWord = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'}`;
const haveWord = (n: number) => (n === 1 ? 'has' : 'have');

type Step =
  | { kind: 'choose'; error: string | null }
  | { kind: 'checking'; name: string }
  | { kind: 'preview'; name: string; file: Blob; preview: ImportPreview }
  | { kind: 'done'; result: ImportResult };

/** D15: a step's heading takes the focus when the step appears, so the change is heard and seen. */
function StepHeading({ id, children }: { id: string; children: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h2 id={id} ref={ref} tabIndex={-1}>
      {children}
    </h2>
  );
}

function ChooseFile({ error, onFile }: { error: string | null; onFile: (file: File) => void }) {
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
        A CSV file of at most 5 MB and 10,000 rows, with a header row naming the columns: name (required), company, email, phone, address_line, city, region, postal_code,
        country, status (lead, active or inactive) and tags (separated by semicolons). You see every row before anything is saved.
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

function Preview({ step, onDone, onRestart }: { step: Extract<Step, { kind: 'preview' }>; onDone: (r: ImportResult) => void; onRestart: () => void }) {
  const commit = useMutation(useCustomersApi().commitImport);
  const canUpdate = useCan('customers:update');
  const [mode, setMode] = useState<ImportDuplicateMode>('skip');
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState<ImportPreviewRow[] | null>(null);
  const { summary, rows, ignored_columns: ignored, ignored_column_count: ignoredCount } = step.preview;
  const id = useId();

  const blocked =
    summary.invalid > 0
      ? `Fix the file and upload it again: ${rowsWord(summary.invalid)} ${haveWord(summary.invalid)} errors.`
      : summary.total === 0
        ? 'The file has no rows to import.'
        : null;
  const shown = shownRows(rows);

  const run = async () => {
    setError(null);
    setRefused(null);
    try {
      onDone(await commit.mutate({ file: step.file, onDuplicate: mode, previewedAt: step.preview.previewed_at }));
    } catch (e) {
      const bad = invalidRows(e);
      setRefused(bad);
      setError(importErrorMessage(e, step.name));
    }
  };

  return (
    <section className="card import-step" aria-labelledby={`${id}h`}>
      <StepHeading id={`${id}h`}>Preview</StepHeading>
      <p>
        “{step.name}”: {rowsWord(summary.total)}. {summary.valid} ready, {summary.invalid} with errors, {summary.duplicates} with an email that already exists
        {summary.unchanged > 0 ? ` (${summary.unchanged} of them already up to date)` : ''}.
      </p>
      <p className="muted import-read">{readAsText(step.preview)}</p>
      {ignoredCount > 0 && (
        <p className="muted">
          Columns that are not customer fields are left out: {ignored.join(', ')}
          {ignoredCount > ignored.length ? ` and ${ignoredCount - ignored.length} more` : ''}.
        </p>
      )}

      {summary.duplicates > 0 && (
        <fieldset className="import-choice">
          <legend>Rows whose email already exists</legend>
          <label>
            <input type="radio" name={`${id}m`} value="skip" checked={mode === 'skip'} onChange={() => setMode('skip')} /> Skip them
          </label>
          {canUpdate ? (
            <label>
              <input type="radio" name={`${id}m`} value="update" checked={mode === 'update'} onChange={() => setMode('update')} /> Update them with the file's values
              (empty cells change nothing)
            </label>
          ) : (
            <p className="muted">Updating existing customers needs permission to edit them, so these rows will be skipped.</p>
          )}
        </fieldset>
      )}

      <div className="import-actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void run()}
          disabled={blocked !== null || commit.status === 'pending'}
          aria-describedby={blocked ? `${id}b` : undefined}
        >
          {commit.status === 'pending' ? 'Importing…' : 'Import'}
        </button>
        <button type="button" className="btn" onClick={onRestart} disabled={commit.status === 'pending'}>
          Choose another file
        </button>
        {blocked ? (
          <p id={`${id}b`} className="import-blocked">
            {blocked}
          </p>
        ) : (
          <p className="muted">Nothing is saved until you press Import.</p>
        )}
      </div>
      {error && (
        <div className="write-error" role="alert">
          <p>{error}</p>
        </div>
      )}
      {refused && refused.length > 0 && <PreviewTable rows={refused} mode={mode} caption="Rows the server refused" />}

      <PreviewTable rows={shown} mode={mode} caption={`The rows of ${step.name}`} />
      {shown.length < rows.length && (
        <p className="muted import-more">
          {rows.length - shown.length} more {rows.length - shown.length === 1 ? 'row' : 'rows'} without problems are not shown; they are imported all the same.
        </p>
      )}
    </section>
  );
}

function Done({ result, onRestart }: { result: ImportResult; onRestart: () => void }) {
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

export default function ImportCustomersPage() {
  const api = useCustomersApi();
  const [step, setStep] = useState<Step>({ kind: 'choose', error: null });
  const current = useRef(0); // a later file's answer wins over an earlier one still on its way

  const check = async (file: File) => {
    const problem = fileProblem(file);
    if (problem) return setStep({ kind: 'choose', error: problem });
    const mine = ++current.current;
    setStep({ kind: 'checking', name: file.name });
    try {
      const preview = await api.previewImport(file); // D43: the bytes as they are; the server reads the encoding
      if (mine === current.current) setStep({ kind: 'preview', name: file.name, file, preview });
    } catch (e) {
      if (mine === current.current) setStep({ kind: 'choose', error: importErrorMessage(e, file.name) });
    }
  };
  const restart = () => {
    current.current++;
    setStep({ kind: 'choose', error: null });
  };
  const done = (result: ImportResult) => {
    setStep({ kind: 'done', result });
    toast.success(`Import finished: ${resultText(result)}`); // D15: announced in the live region
  };

  return (
    <Page
      title="Import Customers"
      description="Add many customers at once from a CSV file."
      actions={
        <Link to={PAGES.customers} className="btn">
          Back to Customers
        </Link>
      }
    >
      {step.kind === 'choose' && <ChooseFile error={step.error} onFile={(f) => void check(f)} />}
      {step.kind === 'checking' && (
        <section className="card import-step" aria-label="Checking the file">
          <Spinner label={`Checking “${step.name}”…`} showLabel />
        </section>
      )}
      {step.kind === 'preview' && <Preview step={step} onDone={done} onRestart={restart} />}
      {step.kind === 'done' && <Done result={step.result} onRestart={restart} />}
    </Page>
  );
}
