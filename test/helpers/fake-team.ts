// The team, permission matrix, audit log and public invitation API (D28–D30) as the fake API answers
// them (FakeApi.team): the server's rules (contract/team.ts, as server/features/team applies them) on
// in-memory data, with one-off refusals a test can queue.
import type { AuditEntryView } from '../../contract/audit';
import { DEFAULT_PAGE_SIZE } from '../../contract/customers';
import { DEFAULT_ROLE_PERMISSIONS, PERMISSIONS, ROLES, type CustomerScope, type Permission, type Role } from '../../contract/permissions';
import { REMEMBER_ME_LIFETIME_MS } from '../../contract/session';
import {
  INVITATION_LIFETIME_DAYS,
  INVITATION_UNKNOWN,
  INVITATION_UNUSABLE,
  ownerCount,
  ownerOnlyRefusal,
  PASSWORD_MIN_LENGTH,
  removalRefusal,
  roleChangeRefusal,
  TEAM_REFUSAL_STATUS,
  TEAM_REFUSAL_WORDS,
  type Invitation,
  type InvitationLookup,
  type IssuedInvitation,
  type Member,
  type PermissionMatrix,
  type TeamRefusal,
} from '../../contract/team';
import { DAY_MS } from '../../contract/time';
import type { FakeApi } from './fake-api';
import { json, type Call } from './fake-http';

export const OLIVE: Member = { user_id: 1, name: 'Olive', email: 'owner@demo.test', role: 'owner', joined_at: '2024-01-02T10:00:00.000Z' };
export const ADA: Member = { user_id: 2, name: 'Ada', email: 'ada@example.com', role: 'admin', joined_at: '2024-02-03T10:00:00.000Z' };
export const MO: Member = { user_id: 3, name: 'Mo', email: 'mo@example.com', role: 'member', joined_at: '2024-03-04T10:00:00.000Z' };
export const VI: Member = { user_id: 4, name: 'Vi', email: 'vi@example.com', role: 'viewer', joined_at: '2024-04-05T10:00:00.000Z' };

const NOW = Date.parse('2024-06-01T12:00:00.000Z');

/** A token of the server's shape (20–100 of [A-Za-z0-9_-]). */
export const tokenFor = (n: number) => `tok${String(n).padStart(4, '0')}abcdefghijklmnopqrstuv`;

export interface Refusal {
  method: string;
  /** The path after the API base, e.g. '/v1/team/members/3/'. */
  path: string;
  status: number;
  code: string;
  detail: string;
  extra?: Record<string, unknown>;
}

/** What a public token opens. */
export interface FakeInvitationLink extends InvitationLookup {
  token: string;
}

export class FakeTeam {
  members: Member[] = [OLIVE, ADA, MO, VI].map((m) => ({ ...m }));
  invitations: (Invitation & { token: string })[] = [];
  matrix: Record<Role, Permission[]> = Object.fromEntries(ROLES.map((r) => [r, [...DEFAULT_ROLE_PERMISSIONS[r]]])) as Record<Role, Permission[]>;
  /** D59: what each role sees of customers. */
  scopes: Record<Role, CustomerScope> = { owner: 'all', admin: 'all', member: 'all', viewer: 'all' };
  audit: AuditEntryView[] = [];
  /** The calling user (a member above) and what they may do. */
  callerId = OLIVE.user_id;
  permissions = new Set<string>(PERMISSIONS);
  /** Public links: token → what it opens. */
  links = new Map<string, FakeInvitationLink>();
  /** The email of the signed-in person accepting (the token the client sent stands for them). */
  signedInEmail = OLIVE.email;
  /** Answers to give once, before the normal ones, for the call they name. */
  refusals: Refusal[] = [];
  /** Bodies of accept calls, in order. */
  accepted: unknown[] = [];
  private serial = 100;

  constructor(private readonly api: FakeApi) {}

  refuse(method: string, path: string, status: number, code: string, detail: string, extra?: Record<string, unknown>): void {
    this.refusals.push({ method, path, status, code, detail, extra });
  }

  /** A pending invitation in the team's list, and its public link. */
  addInvitation(email: string, role: Role, extra: Partial<InvitationLookup> = {}): Invitation & { token: string } {
    const id = ++this.serial;
    const token = tokenFor(id);
    const inv = {
      id,
      email,
      role,
      invited_by: { id: OLIVE.user_id, name: OLIVE.name },
      created_at: new Date(NOW).toISOString(),
      expires_at: new Date(NOW + INVITATION_LIFETIME_DAYS * DAY_MS).toISOString(),
      token,
    };
    this.invitations.unshift(inv);
    this.addLink(token, { email, role, ...extra });
    return inv;
  }

  addLink(token: string, over: Partial<InvitationLookup> = {}): FakeInvitationLink {
    const link: FakeInvitationLink = {
      token,
      organization: { id: 2, name: 'Beacon Electric', logo_url: null },
      inviter: 'Olive',
      email: 'sam@example.com',
      role: 'member',
      status: 'pending',
      has_account: false,
      ...over,
    };
    this.links.set(token, link);
    return link;
  }

  private get caller(): Member | undefined {
    return this.members.find((m) => m.user_id === this.callerId);
  }

  private issue(inv: Omit<Invitation, 'id' | 'created_at' | 'expires_at' | 'invited_by'>): IssuedInvitation {
    const id = ++this.serial;
    const token = tokenFor(id);
    const issued: IssuedInvitation = {
      ...inv,
      id,
      invited_by: { id: this.callerId, name: this.caller?.name ?? '' },
      created_at: new Date(NOW).toISOString(),
      expires_at: new Date(NOW + INVITATION_LIFETIME_DAYS * DAY_MS).toISOString(),
      token,
      path: `/invite/${token}`,
    };
    const { path: _path, ...kept } = issued;
    this.invitations.unshift(kept);
    return issued;
  }

  handle(call: Call, p: string, params: URLSearchParams, signedIn: boolean): Response {
    const refusal = this.refusals.findIndex((r) => r.method === call.method && r.path === p);
    if (refusal >= 0) {
      const [r] = this.refusals.splice(refusal, 1);
      return json(r!.status, { detail: r!.detail, code: r!.code, ...r!.extra });
    }
    const body = (call.body ?? {}) as Record<string, unknown>;
    const denied = (perm: string) => json(403, { detail: `Your role does not grant ${perm}`, code: 'permission_denied' });
    const need = (perm: string) => (this.permissions.has(perm) ? null : denied(perm));
    const actor = this.caller?.role ?? null;
    const teamRefusal = (r: TeamRefusal, what = '') => json(TEAM_REFUSAL_STATUS[r], { detail: TEAM_REFUSAL_WORDS[r](what), code: r });

    // ---- public ----
    const pub = /^\/v1\/invitations\/([^/]+)\/(accept\/)?$/.exec(p);
    if (pub) {
      const link = this.links.get(decodeURIComponent(pub[1]!));
      if (!link) return json(404, { detail: INVITATION_UNKNOWN, code: 'invitation_not_found' });
      if (!pub[2]) {
        const { token: _t, ...lookup } = link;
        return json(200, lookup);
      }
      this.accepted.push(call.body);
      if (link.status !== 'pending') return json(410, { detail: INVITATION_UNUSABLE[link.status], code: `invitation_${link.status}` });
      if (signedIn) {
        if (this.signedInEmail.toLowerCase() !== link.email.toLowerCase()) {
          return json(403, { detail: `This invitation is for ${link.email}; you are signed in as ${this.signedInEmail}`, code: 'email_mismatch' });
        }
        link.status = 'accepted';
        return json(200, { org_id: link.organization.id });
      }
      if (!body.first_name) return json(400, { detail: 'first_name: is required', code: 'missing_field', field: 'first_name' });
      if (typeof body.password !== 'string' || body.password.length < PASSWORD_MIN_LENGTH)
        return json(400, { detail: `password: must be at least ${PASSWORD_MIN_LENGTH} characters`, code: 'invalid_field', field: 'password' });
      if (link.has_account) return json(409, { detail: `An account for ${link.email} exists; sign in to join`, code: 'account_exists' });
      link.status = 'accepted';
      const t = this.api.issue('99');
      return json(200, { org_id: link.organization.id, ...t, refresh_expires_at: new Date(Date.now() + REMEMBER_ME_LIFETIME_MS).toISOString() });
    }

    // ---- members ----
    if (p === '/v1/team/members/' && call.method === 'GET') return need('team:view') ?? json(200, { results: this.members });
    const member = /^\/v1\/team\/members\/(\d+)\/$/.exec(p);
    if (member) {
      const refused = need('team:manage');
      if (refused) return refused;
      const m = this.members.find((x) => x.user_id === Number(member[1]));
      if (!m) return json(404, { detail: 'No such member', code: 'not_found' });
      if (call.method === 'PATCH') {
        const role = body.role as Role;
        const refusal = roleChangeRefusal({ actor, self: m.user_id === this.callerId, from: m.role, to: role, owners: ownerCount(this.members) });
        if (refusal) return teamRefusal(refusal, refusal === 'last_owner' ? 'be demoted' : 'make or unmake an owner');
        m.role = role;
        return json(200, m);
      }
      if (call.method === 'DELETE') {
        const refusal = removalRefusal({ actor, role: m.role, owners: ownerCount(this.members) });
        if (refusal) return teamRefusal(refusal, refusal === 'last_owner' ? 'be removed' : 'remove an owner');
        this.members = this.members.filter((x) => x !== m);
        return new Response(null, { status: 204 });
      }
    }

    // ---- invitations ----
    if (p === '/v1/team/invitations/') {
      const refused = need('team:manage');
      if (refused) return refused;
      if (call.method === 'GET') return json(200, { results: this.invitations.map(({ token: _t, ...i }) => i) });
      const email = String(body.email ?? '').toLowerCase();
      const role = body.role as Role;
      if (ownerOnlyRefusal(actor, role)) return teamRefusal('owner_required', 'invite an owner');
      if (this.members.some((m) => m.email === email)) return json(409, { detail: `${email} is already a member`, code: 'already_member', field: 'email' });
      const open = this.invitations.find((i) => i.email === email);
      if (open) {
        return json(409, {
          detail: `${email} already has a pending invitation; renew it for a new link`,
          code: 'already_invited',
          field: 'email',
          invitation_id: open.id,
        });
      }
      return json(201, this.issue({ email, role }));
    }
    const inv = /^\/v1\/team\/invitations\/(\d+)\/(renew\/)?$/.exec(p);
    if (inv) {
      const refused = need('team:manage');
      if (refused) return refused;
      const found = this.invitations.find((i) => i.id === Number(inv[1]));
      if (!found) return json(404, { detail: 'No such invitation', code: 'not_found' });
      this.invitations = this.invitations.filter((i) => i !== found);
      if (inv[2] && call.method === 'POST') return json(201, this.issue({ email: found.email, role: found.role }));
      if (call.method === 'DELETE') return new Response(null, { status: 204 });
    }

    // ---- permissions ----
    const answer = (): PermissionMatrix => ({
      roles: [...ROLES],
      permissions: [...PERMISSIONS],
      matrix: this.matrix,
      fixed: ['owner'],
      scopes: this.scopes,
    });
    if (p === '/v1/permissions/' && call.method === 'GET') return need('permissions:view') ?? json(200, answer());
    if (p === '/v1/permissions/' && call.method === 'PUT') {
      const refused = need('permissions:manage');
      if (refused) return refused;
      const sent = (body.matrix ?? {}) as Record<Role, Permission[]>;
      this.matrix = { ...this.matrix, ...sent, owner: [...PERMISSIONS] };
      this.scopes = { ...this.scopes, ...((body.scopes ?? {}) as Partial<Record<Role, CustomerScope>>), owner: 'all' }; // D59
      return json(200, answer());
    }
    if (p === '/v1/permissions/reset/' && call.method === 'POST') {
      const refused = need('permissions:manage');
      if (refused) return refused;
      this.matrix = Object.fromEntries(ROLES.map((r) => [r, [...DEFAULT_ROLE_PERMISSIONS[r]]])) as Record<Role, Permission[]>;
      this.scopes = { owner: 'all', admin: 'all', member: 'all', viewer: 'all' };
      return json(200, answer());
    }

    // ---- audit ----
    if (p === '/v1/audit/' && call.method === 'GET') {
      const refused = need('audit:view');
      if (refused) return refused;
      const actor = params.get('actor');
      const action = params.get('action');
      const type = params.get('target_type');
      const rows = this.audit.filter((e) => (!actor || e.actor?.id === Number(actor)) && (!action || e.action === action) && (!type || e.target.type === type));
      const page = Number(params.get('page') ?? 1);
      const size = Number(params.get('page_size') ?? DEFAULT_PAGE_SIZE);
      return json(200, { count: rows.length, results: rows.slice((page - 1) * size, page * size) });
    }
    return json(404, { detail: 'No such endpoint', code: 'not_found' });
  }
}
