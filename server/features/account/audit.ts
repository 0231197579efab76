// D30 D51 D52: the person's own account changes are written to the audit log of every organization they
// are a member of when the change is made (each sees what happened to one of its members' sign-in); a
// person in no organization has no log to write to, and the change is made all the same. Reset links
// (D53) belong to the organization where the link was made: they are written there only.
import type { AuditAction } from '../../../contract/audit';
import { writeAudit } from '../../audit';
import type { Queryable } from '../../db';
import { organizationsOf } from './repo';

/** The entry, in the change's transaction, once per organization of the person; the person is the actor. */
export async function auditAccount(
  tx: Queryable,
  person: { userId: number; firstName: string },
  action: AuditAction,
  changes: Record<string, unknown>,
  at: Date,
): Promise<void> {
  const who = { id: person.userId, label: person.firstName };
  for (const orgId of await organizationsOf(tx, person.userId)) {
    await writeAudit(tx, orgId, who, action, { target: { type: 'member', id: person.userId, label: person.firstName }, changes }, at);
  }
}
