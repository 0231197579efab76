// D59: the list's 'Assigned to' filter: anyone, the person's own, nobody's, or one member's (the members
// the server offers, asked once the list shows it). Not offered to a person who sees only their own
// customers: every customer they see is theirs.
import { ASSIGNED_ME, ASSIGNED_NONE } from '../../../contract/customers';
import { useId } from 'react';
import { useAssignees, useSeesOnlyAssigned } from '../../api/assignees';
import { useQuery } from '../../query/use-query';

export function AssignedFilter({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const id = useId();
  const scoped = useSeesOnlyAssigned();
  const people = useQuery(useAssignees(), { enabled: !scoped }).data ?? [];
  if (scoped) return null;
  // A member's id from a link, before the members are here (or no longer one of them), stays chosen.
  const unknown = /^\d/.test(value) && !people.some((p) => String(p.id) === value);
  return (
    <div className="list-field">
      <label htmlFor={id}>Assigned to</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Anyone</option>
        <option value={ASSIGNED_ME}>Me</option>
        <option value={ASSIGNED_NONE}>Unassigned</option>
        {unknown && <option value={value}>A member</option>}
        {people.map((p) => (
          <option key={p.id} value={String(p.id)}>
            {p.name}
          </option>
        ))}
      </select>
    </div>
  );
}
