// The team, invitations, permission matrix and activity log calls (D28 D29 D30), with their cache keys,
// as api/customers.ts does for customers: reads are QueryDefs, writes MutationDefs naming the keys they
// make stale. Keys start with the area and the organization (D21), so one prefix covers an area.
import { useMemo } from 'react';
import type { AuditEntryView } from '../../contract/audit';
import type { Page } from '../../contract/customers';
import type { CustomerScope, Permission, Role } from '../../contract/permissions';
import type { AcceptedInvitation, Invitation, InvitationLookup, IssuedInvitation, Member, PermissionMatrix } from '../../contract/team';
import type { Client } from '../http/client';
import type { MutationDef, QueryDef, QueryKey } from '../query/cache';
import { useSession, useSessionActions } from '../session/use-session';

export const MEMBERS_PATH = '/v1/team/members/';
export const TEAM_INVITATIONS_PATH = '/v1/team/invitations/';
/** D28: the public invitation calls (no organization, no session needed). */
export const INVITATIONS_PATH = '/v1/invitations/';
export const PERMISSIONS_PATH = '/v1/permissions/';
export const AUDIT_PATH = '/v1/audit/';
/** D30: entries a page of the activity log shows. */
export const AUDIT_PAGE_SIZE = 25;

/** GET /v1/audit/ filters (D30), named as the server names them. */
export interface AuditParams {
  actor?: number;
  action?: string;
  target_type?: string;
  target_id?: number;
  page?: number;
  page_size?: number;
}

/** What a new account gives to accept an invitation (D28); a signed-in person sends nothing. */
export interface SignUp {
  first_name: string;
  password: string;
}

export const teamKeys = {
  all: (orgId: number | null): QueryKey => ['team', orgId],
  members: (orgId: number | null): QueryKey => ['team', orgId, 'members'],
  invitations: (orgId: number | null): QueryKey => ['team', orgId, 'invitations'],
  permissions: (orgId: number | null): QueryKey => ['permissions', orgId],
  audit: (orgId: number | null): QueryKey => ['audit', orgId],
  auditPage: (orgId: number | null, params: AuditParams): QueryKey => ['audit', orgId, params],
};

const memberPath = (userId: number) => `${MEMBERS_PATH}${userId}/`;
const invitationPath = (id: number) => `${TEAM_INVITATIONS_PATH}${id}/`;
const publicPath = (token: string) => `${INVITATIONS_PATH}${encodeURIComponent(token)}/`;

// Its own copies of three small pieces of api/customers.ts (test/api/team.test.ts holds them equal):
// importing them would bring every customers call along with each team page (each page ≤ 10 KB gzip, docs/performance.md).
/** The dashboard's key (customerKeys.dashboard): its latest activity shows the audit log. */
export const dashboardKey = (orgId: number | null): QueryKey => ['dashboard', orgId];
/** A query string of the given parameters, leaving out empty ones (as queryString in api/customers.ts). */
export function queryString(params: object): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '' && v !== false) search.set(k, String(v));
  const s = search.toString();
  return s ? `?${s}` : '';
}
/** An answer of another shape is an error here, not a crash in a table later (as parsePage there). */
function parsePage<T>(data: unknown): Page<T> {
  const d = data as Partial<Page<T>> | null;
  if (!d || typeof d.count !== 'number' || !Array.isArray(d.results)) throw new TypeError('Unexpected answer from the server');
  return { count: d.count, results: d.results };
}

const results = <T>(data: unknown): T[] => {
  const list = (data as { results?: unknown } | null)?.results;
  if (!Array.isArray(list)) throw new TypeError('Unexpected answer from the server');
  return list as T[];
};

/** PUT /v1/permissions/: the editable rows, and (D59) what each of them sees of customers. */
export interface PermissionsSave {
  matrix: Partial<Record<Role, Permission[]>>;
  scopes?: Partial<Record<Role, CustomerScope>>;
}

/** The team, permissions and activity calls of one organization. */
export function teamApi({ client, orgId }: { client: Pick<Client, 'get' | 'post' | 'put' | 'patch' | 'delete'>; orgId: number | null }) {
  // Every change writes an audit entry (D30), which the activity log and the dashboard's latest activity show.
  const logged = [teamKeys.audit(orgId), dashboardKey(orgId)];
  const membersChanged = [teamKeys.members(orgId), ...logged];
  const invitationsChanged = [teamKeys.invitations(orgId), ...logged];
  const matrixChanged = [teamKeys.permissions(orgId), ...logged];

  return {
    members: (): QueryDef<Member[]> => ({
      key: teamKeys.members(orgId),
      fetch: async (signal) => results<Member>(await client.get(MEMBERS_PATH, { signal })),
    }),
    invitations: (): QueryDef<Invitation[]> => ({
      key: teamKeys.invitations(orgId),
      fetch: async (signal) => results<Invitation>(await client.get(TEAM_INVITATIONS_PATH, { signal })),
    }),
    permissions: (): QueryDef<PermissionMatrix> => ({
      key: teamKeys.permissions(orgId),
      fetch: (signal) => client.get<PermissionMatrix>(PERMISSIONS_PATH, { signal }),
    }),
    audit: (params: AuditParams): QueryDef<Page<AuditEntryView>> => ({
      key: teamKeys.auditPage(orgId, params),
      fetch: async (signal) => parsePage<AuditEntryView>(await client.get(AUDIT_PATH + queryString(params), { signal })),
    }),

    /** D28: 403 owner_required / own_role, 409 last_owner. */
    changeRole: {
      run: ({ userId, role }: { userId: number; role: Role }) => client.patch<Member>(memberPath(userId), { role }),
      invalidates: membersChanged,
    } satisfies MutationDef<{ userId: number; role: Role }, Member>,
    /** D28: 204; 409 last_owner. */
    removeMember: { run: (userId: number) => client.delete<null>(memberPath(userId)), invalidates: membersChanged } satisfies MutationDef<number, null>,
    /** D28: 201 with the link, shown once; 409 already_member / already_invited (with invitation_id). */
    invite: {
      run: (input: { email: string; role: Role }) => client.post<IssuedInvitation>(TEAM_INVITATIONS_PATH, input),
      invalidates: invitationsChanged,
    } satisfies MutationDef<{ email: string; role: Role }, IssuedInvitation>,
    revoke: { run: (id: number) => client.delete<null>(invitationPath(id)), invalidates: invitationsChanged } satisfies MutationDef<number, null>,
    /** D28: a new link and 7 more days; the old link stops working. */
    renew: {
      run: (id: number) => client.post<IssuedInvitation>(`${invitationPath(id)}renew/`),
      invalidates: invitationsChanged,
    } satisfies MutationDef<number, IssuedInvitation>,

    /** D29: the matrix saved as a whole (the owner row is fixed and left out); D59 with what each role sees. */
    savePermissions: {
      run: (body: PermissionsSave) => client.put<PermissionMatrix>(PERMISSIONS_PATH, body),
      invalidates: matrixChanged,
    } satisfies MutationDef<PermissionsSave, PermissionMatrix>,
    resetPermissions: {
      run: (_: void) => client.post<PermissionMatrix>(`${PERMISSIONS_PATH}reset/`),
      invalidates: matrixChanged,
    } satisfies MutationDef<void, PermissionMatrix>,
  };
}

export type TeamApi = ReturnType<typeof teamApi>;

/** The team calls of the organization this tab shows, for a screen. */
export function useTeamApi(): TeamApi & { orgId: number | null } {
  const { client } = useSessionActions();
  const orgId = useSession().currentOrg?.id ?? null;
  return useMemo(() => ({ ...teamApi({ client, orgId }), orgId }), [client, orgId]);
}

/**
 * D28: the public invitation page's calls. They go with the session's token when there is one (a
 * signed-in person joins as themselves) and without when there is none (optionalAuth).
 */
export function invitationApi(client: Pick<Client, 'get' | 'post'>) {
  return {
    /** Read once by the page, not cached: it is one person's one visit, before and after signing in or out. */
    lookup: (token: string, signal?: AbortSignal) => client.get<InvitationLookup>(publicPath(token), { signal, optionalAuth: true }),
    /** Signed in: {} → {org_id}. A new account: {first_name, password} → {org_id} and its tokens, as a login answers. */
    accept: (token: string, signUp?: SignUp) => client.post<AcceptedInvitation>(`${publicPath(token)}accept/`, signUp ?? {}, { optionalAuth: true }),
  };
}
