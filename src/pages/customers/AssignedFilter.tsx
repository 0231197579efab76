// D59: the list's 'Assigned to' filter: anyone, the person's own, nobody's, or one member's (the members
// the server offers, asked once the list shows it). A menu in the tabs' row beside D56's, opening over
// the list, so the filters keep their one row and eight rows stay in view at 1280×800. Not offered to a
// person who sees only their own customers: every customer they see is theirs.
import { ASSIGNED_ME, ASSIGNED_NONE } from '../../../contract/assignment';
import { useId } from 'react';
import { useAssignees, useSeesOnlyAssigned } from '../../api/assignees';
import { useQuery } from '../../query/use-query';
import { escapeCloses } from '../../ui/disclosure';

export const ASSIGNED_LABEL = 'Assigned to';

export function AssignedFilter({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const id = useId();
  const scoped = useSeesOnlyAssigned();
  const people = useQuery(useAssignees(), { enabled: !scoped }).data ?? [];
  if (scoped) return null;
  const choices = [
    { value: '', label: 'Anyone' },
    { value: ASSIGNED_ME, label: 'Me' },
    { value: ASSIGNED_NONE, label: 'Unassigned' },
    ...people.map((p) => ({ value: String(p.id), label: p.name })),
  ];
  // A member's id from a link, before the members are here (or no longer one of them), stays chosen.
  const chosen = choices.find((c) => c.value === value) ?? { value, label: 'A member' };
  if (!choices.includes(chosen)) choices.push(chosen);
  return (
    <details className="cf-columns cf-filter" onKeyDown={escapeCloses}>
      <summary className="btn btn-sm">{value ? `${ASSIGNED_LABEL}: ${chosen.label}` : ASSIGNED_LABEL}</summary>
      <div className="list-filters cf-add">
        <div className="list-field">
          <label htmlFor={id}>{ASSIGNED_LABEL}</label>
          <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
            {choices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
      </div>
    </details>
  );
}
