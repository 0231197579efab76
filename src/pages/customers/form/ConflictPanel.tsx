// D31: someone saved this customer after the person opened it. Say who and when, show each field they
// changed beside what the person has in the form, and let the person choose: save their own changes on
// top (fields they did not touch keep the other person's values), or load the current record. Loaded
// the first time it is needed.
import { useEffect, useRef } from 'react';
import type { CustomField } from '../../../../contract/custom-fields';
import type { Customer } from '../../../../contract/customers';
import { customText } from '../custom/text';
import { absoluteTime } from '../../../ui/when';
import { useAssignees } from '../../../api/assignees';
import { useQuery } from '../../../query/use-query';

export const CONFLICT_TITLE = 'Someone else changed this customer';

// The labels and the words for values come from the form: a module both used would be cut into one
// more file for the form. D48's fields are listed like D22's.
export interface ConflictPanelProps {
  fieldLabels: Record<string, string>;
  /** A field's value in words ('' when empty). */
  valueText: (field: string, value: unknown) => string;
  /** D56: the organization's custom fields, listed after the others as `custom.<key>`. */
  fields: readonly CustomField[];
  current: Customer;
  /** The record the person started from. */
  base: Partial<Record<string, unknown>>;
  /** What the person has in the form now, as it would be saved. */
  mine: Partial<Record<string, unknown>>;
  /** True while a save cannot be sent (offline). */
  saveDisabled: boolean;
  /** True while the save is on its way: the button stays focusable (D15), a second press does nothing. */
  saving?: boolean;
  /** Runs before the form is submitted again: the save goes on top of the current version. */
  onKeepMine: () => void;
  onUseTheirs: () => void;
}

const cell = (s: string) => s || <span className="muted">(empty)</span>;
/** A field of a record; D56 `custom.<key>` is in its `custom` object. */
const read = (o: Partial<Record<string, unknown>>, f: string) => (f.startsWith('custom.') ? (o.custom as Record<string, unknown> | undefined)?.[f.slice(7)] : o[f]);

export function ConflictPanel({
  fieldLabels: plainLabels,
  valueText: plainText,
  fields: custom,
  current,
  base,
  mine,
  saveDisabled,
  saving = false,
  onKeepMine,
  onUseTheirs,
}: ConflictPanelProps) {
  const panel = useRef<HTMLElement>(null);
  const fieldLabels: Record<string, string> = { ...plainLabels, ...Object.fromEntries(custom.map((f) => [`custom.${f.key}`, f.label])) };
  // D59: the assignee compared by id (the form holds ids, the record a person), named as the members are.
  const people = [...(useQuery(useAssignees()).data ?? []), current.assigned_to];
  const named = (id: unknown) => (id ? (people.find((p) => p?.id === id)?.name ?? 'A former member') : '');
  const text = (f: string, v: unknown) => {
    const c = custom.find((x) => `custom.${x.key}` === f);
    return c ? customText(c, v as never) : f === 'assigned_to' ? named(v) : plainText(f, v);
  };
  useEffect(() => panel.current?.focus(), []); // D15: the person is taken to the choice to make
  const who = current.updated_by?.name ?? 'Someone';
  const at = absoluteTime(current.updated_at);
  const record = { ...(current as unknown as Record<string, unknown>), assigned_to: current.assigned_to?.id ?? null };
  const fields = Object.keys(fieldLabels).filter((f) => text(f, read(record, f)) !== text(f, read(base, f)));
  return (
    <section ref={panel} className="card cf-conflict" aria-labelledby="cf-conflict-title" tabIndex={-1}>
      <div role="alert">
        <h2 id="cf-conflict-title">{CONFLICT_TITLE}</h2>
        <p>
          {who} saved changes{at && ` on ${at}`}, after you opened this form. Everything you typed is still here.
        </p>
      </div>
      {fields.length > 0 && (
        <div className="cf-conflict-table">
          <table>
            <caption>Fields {who} changed</caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Your value</th>
                <th scope="col">Current value</th>
              </tr>
            </thead>
            <tbody>
              {fields.map((f) => {
                const [a, b] = [text(f, read(mine, f)), text(f, read(record, f))];
                return (
                  <tr key={f} data-differs={a === b ? undefined : ''}>
                    <th scope="row">{fieldLabels[f]}</th>
                    <td>{cell(a)}</td>
                    <td>{cell(b)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted">Saving your changes keeps {who}’s values in the fields you did not edit.</p>
      <div className="cf-conflict-actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={saveDisabled}
          aria-disabled={saving || undefined}
          onClick={(e) => {
            if (saving) return;
            onKeepMine();
            // Not a submit button: Enter in a field keeps meaning Save, never this choice.
            e.currentTarget.form?.requestSubmit();
          }}
        >
          Keep my changes and save
        </button>
        <button type="button" className="btn" onClick={onUseTheirs}>
          Use their version
        </button>
      </div>
    </section>
  );
}
