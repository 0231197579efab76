// D27 D60 Import (customers/import, customers:create): upload a CSV, choose what each column imports into
// and how rows become customers, preview each row with its errors and duplicates, choose to skip or update
// the duplicates, commit, and read the summary. Nothing is written until the commit, which writes all rows or none.
import { useId, useRef, useState } from 'react';
import type { ImportDuplicateMode, ImportPreview, ImportPreviewRow, ImportResult } from '../../../contract/customers';
import { useCustomersApi } from '../../api/customers';
import { isHttpError } from '../../http/errors';
import { useMutation } from '../../query/use-query';
import { Link } from '../../router/Link';
import { PAGES } from '../../router/paths';
import { useCan } from '../../session/use-session';
import { Page } from '../../ui/page';
import { Spinner } from '../../ui/spinner';
import { toast } from '../../ui/toast';
import { groupingText } from '../../../contract/import-mapping';
import { mappingParams, type ImportMapping } from '../../api/import-mapping';
import { ColumnMapping, mappingOf } from './import/ColumnMapping';
import { importErrorMessage, invalidRows } from './import/errors';
import { fileProblem } from './import/file-check';
import { PreviewTable, shownRows } from './import/PreviewTable';
import { readAsText, resultText } from './import/words';
import { ChooseFile, Done, StepHeading } from './import/steps';

const rowsWord = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'}`;
const haveWord = (n: number) => (n === 1 ? 'has' : 'have');

type Step =
  | { kind: 'choose'; error: string | null }
  | { kind: 'checking'; name: string }
  | { kind: 'preview'; name: string; file: Blob; preview: ImportPreview }
  | { kind: 'done'; result: ImportResult };

type PreviewStep = Extract<Step, { kind: 'preview' }>;

function Preview({
  step,
  onDone,
  onRestart,
  onRemap,
}: {
  step: PreviewStep;
  onDone: (r: ImportResult) => void;
  onRestart: () => void;
  /** The same file previewed again, with this mapping or (none given) the one shown. */
  onRemap: (m?: ImportMapping) => Promise<void>;
}) {
  const commit = useMutation(useCustomersApi().commitImport);
  const canUpdate = useCan('customers:update');
  const [mode, setMode] = useState<ImportDuplicateMode>('skip');
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState<ImportPreviewRow[] | null>(null);
  // D60: the mapping asked for and not answered yet (the latest), shown meanwhile so two quick changes add up.
  const [pending, setPending] = useState<ImportMapping | null>(null);
  const asked = useRef(0);
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
      // D60: the mapping shown is the one the import reads the file with.
      const mapping = step.preview.columns.length ? mappingParams(mappingOf(step.preview)) : undefined;
      onDone(await commit.mutate({ file: step.file, onDuplicate: mode, previewedAt: step.preview.previewed_at, mapping }));
    } catch (e) {
      const bad = invalidRows(e);
      setRefused(bad);
      setError(importErrorMessage(e, step.name));
      // Refused for what changed since the preview (a member removed, an email taken): the file is
      // previewed again, so the summary, the rows and the Import button say what holds now. The refused
      // rows stay shown if that fails.
      if (bad || isHttpError(e, 409)) {
        try {
          await onRemap();
          setRefused(null);
        } catch {}
      }
    }
  };

  const remap = async (m: ImportMapping) => {
    const mine = ++asked.current;
    setPending(m);
    setError(null);
    try {
      await onRemap(m);
    } catch (e) {
      if (mine === asked.current) setError(importErrorMessage(e, step.name));
    } finally {
      if (mine === asked.current) setPending(null);
    }
  };
  const remapping = pending !== null;

  return (
    <section className="card import-step" aria-labelledby={`${id}h`}>
      <StepHeading id={`${id}h`}>Preview</StepHeading>
      <p className="import-grouped" role="status">
        {remapping ? 'Updating the preview…' : step.preview.columns.length > 0 ? groupingText(summary.total, step.preview.grouping) : ''}
      </p>
      <p>
        “{step.name}”: {rowsWord(summary.total)}. {summary.valid} ready, {summary.invalid} with errors, {summary.duplicates} with an email that already exists
        {summary.unchanged > 0 ? ` (${summary.unchanged} of them already up to date)` : ''}.
      </p>
      <p className="muted import-read">{readAsText(step.preview)}</p>
      {ignoredCount > 0 && (
        <p className="muted">
          Not imported: {ignored.join(', ')}
          {ignoredCount > ignored.length ? ` and ${ignoredCount - ignored.length} more` : ''}.
        </p>
      )}

      {step.preview.columns.length > 0 && (
        <ColumnMapping
          preview={step.preview}
          mapping={pending ?? mappingOf(step.preview)}
          busy={remapping || commit.status === 'pending'}
          onChange={(m) => void remap(m)}
        />
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
      {refused && refused.length > 0 && <PreviewTable rows={refused} mode={mode} caption="Rows the server refused" names={step.preview} />}

      <PreviewTable rows={shown} mode={mode} caption={`The rows of ${step.name}`} names={step.preview} />
      {shown.length < rows.length && (
        <p className="muted import-more">
          {rows.length - shown.length} more {rows.length - shown.length === 1 ? 'row' : 'rows'} without problems are not shown; they are imported all the same.
        </p>
      )}
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
  // D60: the same file previewed again with the person's mapping (or the one shown); a later answer wins.
  const remap = async (mapping?: ImportMapping) => {
    if (step.kind !== 'preview') return;
    const mine = ++current.current;
    const m = mapping ?? (step.preview.columns.length ? mappingOf(step.preview) : undefined);
    const preview = await api.previewImport(step.file, m && mappingParams(m));
    if (mine === current.current) setStep({ ...step, preview });
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
      {step.kind === 'preview' && <Preview step={step} onDone={done} onRestart={restart} onRemap={remap} />}
      {step.kind === 'done' && <Done result={step.result} onRestart={restart} />}
    </Page>
  );
}
