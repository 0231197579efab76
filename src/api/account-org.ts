// D53 D54: the account calls made inside an organization: a member's reset link (team:manage) and the
// organization's settings (any member reads them, an owner changes them). Keys by organization (D21).
import { useMemo } from 'react';
import type { IssuedResetLink, OrganizationSettings } from '../../contract/account';
import type { Client } from '../http/client';
import type { MutationDef, QueryDef, QueryKey } from '../query/cache';
import { useSession, useSessionActions } from '../session/use-session';

export const ORG_SETTINGS_PATH = '/v1/organization/settings/';
/** D67: everything the organization holds, as one ZIP (an owner only). */
export const EXPORT_ALL_PATH = '/v1/organization/export/';
export const resetLinkPath = (userId: number) => `/v1/team/members/${userId}/reset-link/`;

export const orgKeys = {
  settings: (orgId: number | null): QueryKey => ['organization', orgId, 'settings'],
  /** Audit entries (D30) are written by both calls; the activity log and dashboard refetch. */
  audit: (orgId: number | null): QueryKey => ['audit', orgId],
  dashboard: (orgId: number | null): QueryKey => ['dashboard', orgId],
};

export function orgAccountApi({ client, orgId }: { client: Pick<Client, 'get' | 'post' | 'patch'>; orgId: number | null }) {
  const logged = [orgKeys.audit(orgId), orgKeys.dashboard(orgId)];
  return {
    settings: (): QueryDef<OrganizationSettings> => ({
      key: orgKeys.settings(orgId),
      fetch: (signal) => client.get<OrganizationSettings>(ORG_SETTINGS_PATH, { signal }),
    }),
    /** D54: owner only (403 otherwise). */
    saveSettings: {
      run: (patch: Partial<OrganizationSettings>) => client.patch<OrganizationSettings>(ORG_SETTINGS_PATH, patch),
      invalidates: [orgKeys.settings(orgId), ...logged],
    } satisfies MutationDef<Partial<OrganizationSettings>, OrganizationSettings>,
    /** D53: 201 with the token, shown once; 403 with D53's reason in its detail; 400 for oneself. */
    resetLink: {
      run: (userId: number) => client.post<IssuedResetLink>(resetLinkPath(userId)),
      invalidates: logged,
    } satisfies MutationDef<number, IssuedResetLink>,
    /** D67: 200 the ZIP; 403 owner_required for anyone else. Audited, so the log refetches. */
    exportAll: {
      run: () => client.post<Blob>(EXPORT_ALL_PATH, undefined, { blob: true, headers: { Accept: 'application/zip' } }),
      invalidates: logged,
    } satisfies MutationDef<void, Blob>,
  };
}

/** The calls of the organization this tab shows, for a screen. */
export function useOrgAccountApi() {
  const { client } = useSessionActions();
  const orgId = useSession().currentOrg?.id ?? null;
  return useMemo(() => orgAccountApi({ client, orgId }), [client, orgId]);
}
