// D59: the members a customer may be assigned to (GET /v1/customers/assignees/, customers:view), apart
// from the customers calls so the form, the list's filter and bulk load it only where they show it.
import { useMemo } from 'react';
import { ASSIGNEES_PATH } from '../../contract/assignment';
import type { PersonRef } from '../../contract/customers';
import type { QueryDef } from '../query/cache';
import { useSession, useSessionActions } from '../session/use-session';

/** Under ['customers', orgId], so a write to customers (a member removed unassigns theirs) refreshes it too. */
export const assigneesKey = (orgId: number | null) => ['customers', orgId, 'assignees'];

/** `{ results: [{id, name}] }`; an answer of another shape reads as nobody to choose (the None choice still works). */
const people = (d: unknown): PersonRef[] => {
  const results = (d as { results?: unknown } | null)?.results;
  return Array.isArray(results) ? results.filter((p): p is PersonRef => typeof p?.id === 'number' && typeof p?.name === 'string') : [];
};

export function useAssignees(): QueryDef<PersonRef[]> {
  const { client } = useSessionActions();
  const orgId = useSession().currentOrg?.id ?? null;
  return useMemo(() => ({ key: assigneesKey(orgId), fetch: async (signal) => people(await client.get(ASSIGNEES_PATH, { signal })) }), [client, orgId]);
}

/** D59: whether this person's role sees only the customers assigned to them (then they assign to no one else). */
export const useSeesOnlyAssigned = (): boolean => useSession().customersScope === 'assigned';
