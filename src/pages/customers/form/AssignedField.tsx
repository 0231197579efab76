// D59: who the customer is assigned to: None or one of the members the server offers (asked once the
// form shows, through the query cache). A person whose role sees only their own customers cannot assign
// anyone else: they read it as fixed text (a new customer becomes theirs). Loaded with the service
// section (service.tsx), apart from the form's own chunk.
import { useAssignees, useSeesOnlyAssigned } from '../../../api/assignees';
import { useQuery } from '../../../query/use-query';
import { Field, type Form } from '../../../ui/form';
import type { CustomerValues } from './values';

export const ASSIGNED_NONE_LABEL = 'None';
export const ASSIGNED_YOU = 'You (your role sees only the customers assigned to you)';

export function AssignedField({ form, label }: { form: Form<CustomerValues>; label: string }) {
  const scoped = useSeesOnlyAssigned();
  const q = useQuery(useAssignees(), { enabled: !scoped });
  const value = form.values.assigned_to;
  if (scoped) {
    return (
      <div className="field">
        <span>{label}</span>
        <p className="field-hint">{ASSIGNED_YOU}</p>
        {/* A refusal naming it (the role changed meanwhile) is said here, as the form says any field's. */}
        {form.errors.assigned_to && (
          <p className="field-error" role="alert">
            {form.errors.assigned_to}
          </p>
        )}
      </div>
    );
  }
  const people = q.data ?? [];
  const known = !value || people.some((p) => String(p.id) === value);
  return (
    <Field form={form} name="assigned_to" label={label} as="select" aria-busy={q.fetching || undefined}>
      <option value="">{ASSIGNED_NONE_LABEL}</option>
      {/* The saved assignee stays chosen while the members load (or after they left the list). */}
      {!known && <option value={value}>{q.data ? 'A former member' : 'Loading…'}</option>}
      {people.map((p) => (
        <option key={p.id} value={String(p.id)}>
          {p.name}
        </option>
      ))}
    </Field>
  );
}
