// D24: the customer's audit entries in plain words on its own page ("Sam changed phone from A to B"),
// each changed field before → after.
import type { ReactNode } from 'react';
import type { AuditEntryView } from '../../../../contract/customers';
import { actorName, fieldChanges, fieldWord, type FieldChange } from '../../../ui/audit-words';

/** One change, before → after: "changed phone from A to B", "set email to B", "cleared company (was A)". */
function ChangeWords({ change: { field, from, to } }: { change: FieldChange }) {
  const was = <span className="change-from">{from}</span>;
  const now = <span className="change-to">{to}</span>;
  if (!from) return <>set {fieldWord(field)} to {now}</>;
  if (!to) return <>cleared {fieldWord(field)} (was {was})</>;
  return <>changed {fieldWord(field)} from {was} to {now}</>;
}

/** The entry as one sentence; an update of several fields lists them below it (TimelineChanges). */
export function timelineSentence(entry: AuditEntryView): ReactNode {
  const who = actorName(entry);
  switch (entry.action) {
    case 'customer.created':
      return `${who} added this customer`;
    case 'customer.updated': {
      const fields = fieldChanges(entry.changes);
      const [only] = fields;
      return fields.length === 1 && only ? <>{who} <ChangeWords change={only} /></> : `${who} made ${fields.length} changes:`;
    }
    case 'customer.deleted':
      return `${who} deleted this customer`;
    case 'customer.restored':
      return `${who} restored this customer`;
    case 'customers.imported':
      return `${who} imported this customer from a CSV file`;
    default:
      // An action this app does not know yet: its name in words ("customer.merged" → "customer merged").
      return `${who}: ${entry.action.replace(/[._]/g, ' ')}`;
  }
}

/** An update of several fields: each one before → after. */
export function TimelineChanges({ entry }: { entry: AuditEntryView }) {
  const fields = entry.action === 'customer.updated' ? fieldChanges(entry.changes) : [];
  if (fields.length < 2) return null;
  return (
    <ul className="change-list">
      {fields.map((f) => (
        <li key={f.field}>
          <ChangeWords change={f} />
        </li>
      ))}
    </ul>
  );
}
