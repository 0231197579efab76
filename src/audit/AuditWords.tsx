// D24 D30 D32: an audit entry's words on screen: names as links, a change's values before and after
// styled apart; an update of several fields on the timeline lists each one below its sentence.
import type { AuditEntryView } from '../../contract/audit';
import { Link } from '../router/Link';
import { changeWords, describe, type AuditView, type LinkRights, type Part } from './describe';
import { fieldChanges } from './words';

function Parts({ parts }: { parts: Part[] }) {
  return (
    <>
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          p
        ) : 'to' in p ? (
          <Link key={i} to={p.to}>
            {p.text}
          </Link>
        ) : (
          <span key={i} className={`change-${p.value}`}>
            {p.text}
          </span>
        ),
      )}
    </>
  );
}

export function AuditWords({ entry, view, rights, self }: { entry: AuditEntryView; view: AuditView; rights?: LinkRights; self?: number }) {
  return <Parts parts={describe(entry, view, rights, self)} />;
}

/** An update's entry: a customer's (D24), or one of its locations or contacts (D46 D47). */
const UPDATES = new Set(['customer.updated', 'location.updated', 'contact.updated']);

/** D24: an update of several fields on the timeline: each one before → after. */
export function AuditChanges({ entry }: { entry: AuditEntryView }) {
  const fields = UPDATES.has(entry.action) ? fieldChanges(entry.changes) : [];
  if (fields.length < 2) return null;
  return (
    <ul className="change-list">
      {fields.map((f) => (
        <li key={f.field}>
          <Parts parts={changeWords(f)} />
        </li>
      ))}
    </ul>
  );
}
