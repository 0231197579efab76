// D30 D32: the organization's latest activity in plain words, each linking to what it is about: the
// customer (a note's customer too), the team, the permissions; only where the person may go (D9).
import type { ReactNode } from 'react';
import type { AuditEntryView } from '../../../contract/customers';
import { Link } from '../../router/Link';
import { actorName, fieldChanges, fieldWord, wordList } from '../../ui/audit-words';

export interface ActivityLinks {
  team: boolean;
  permissions: boolean;
}

const customerId = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);

export function activitySentence(entry: AuditEntryView, can: ActivityLinks): ReactNode {
  const who = actorName(entry);
  const { action, target, changes } = entry;
  const label = target.label || 'a record';
  const customer = (id: number | null) => (id ? <Link to={`/customers/${id}`}>{label}</Link> : label);
  const member = can.team ? <Link to="/team">{label}</Link> : label;
  const perms = can.permissions ? <Link to="/permissions">the permissions</Link> : 'the permissions';
  const role = typeof changes.role === 'string' ? ` as ${changes.role}` : '';

  switch (action) {
    case 'customer.created':
      return <>{who} added {customer(target.id)}</>;
    case 'customer.updated':
      return <>{who} changed {wordList(fieldChanges(changes).map((c) => fieldWord(c.field)))} of {customer(target.id)}</>;
    case 'customer.deleted':
      return `${who} deleted ${label}`; // D25: a deleted customer's page is a 404, so no link
    case 'customer.restored':
      return <>{who} restored {customer(target.id)}</>;
    case 'customers.imported':
      return <>{who} imported <Link to="/customers">customers</Link> from a CSV file: {label}</>;
    case 'note.added':
      return <>{who} added a note to {customer(customerId(changes.customer_id))}</>;
    case 'note.edited':
      return <>{who} edited a note on {customer(customerId(changes.customer_id))}</>;
    case 'note.deleted':
      return <>{who} deleted a note on {customer(customerId(changes.customer_id))}</>;
    case 'invitation.created':
      return <>{who} invited {member}{role}</>;
    case 'invitation.renewed':
      return <>{who} renewed the invitation for {member}</>;
    case 'invitation.revoked':
      return <>{who} revoked the invitation for {member}</>;
    case 'invitation.accepted':
      return <>{member} joined{role}</>;
    case 'member.role_changed': {
      const [change] = fieldChanges(changes);
      return <>{who} changed the role of {member}{change && ` from ${change.from} to ${change.to}`}</>;
    }
    case 'member.removed':
      return `${who} removed ${label} from the organization`;
    case 'permissions.changed':
      return <>{who} changed {perms}</>;
    case 'permissions.reset':
      return <>{who} reset {perms} to the defaults</>;
    default:
      // An action this app does not know yet: its name in words ("order.shipped" → "order shipped").
      return `${who}: ${action.replace(/[._]/g, ' ')} ${label}`;
  }
}
