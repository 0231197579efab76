// D28 invitations: made, listed, revoked and renewed by team:manage; the public look-up and accept of
// /invite/{token}; D18 its throttling; D9 another organization's invitations are out of reach; D30 the
// audit entries, and no token or password anywhere it could leak (audit log, error bodies, server logs).
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Invitation, IssuedInvitation } from '../../contract/team';
import { expectError } from './api-common';
import { forEachBackend, type Api } from './backends';
import { client, DAY, newAddress, SECOND, tokens, type Clock, type Reply, type TestServer } from './helpers';
import { failedLines, people, tablesSnapshot, type Person } from './people';

const INVITATIONS = '/api/v1/team/invitations/';
const lookupPath = (token: string) => `/api/v1/invitations/${token}/`;
const acceptPath = (token: string) => `/api/v1/invitations/${token}/accept/`;
const NEW_PASSWORD = 'a-new-password-of-some-length';

forEachBackend('API team invitations', (backend) => {
  let server: TestServer;
  let api: Api;
  let clock: Clock;
  beforeAll(() => {
    ({ server, api, clock } = backend());
  });
  const { newOrg, person, team: teamOf } = people(backend, 'Invite Org');
  let counter = 0;
  const unique = (prefix: string) => `${prefix}${++counter}x${Math.random().toString(36).slice(2, 8)}`;
  const newEmail = () => `${unique('invitee')}@example.test`;
  /** A fresh organization with an owner and an admin. */
  const team = async () => {
    const {
      org,
      people: [owner, admin],
    } = await teamOf('owner', 'admin');
    return { org, owner: owner!, admin: admin! };
  };
  const invite = async (who: Person, email = newEmail(), role = 'member'): Promise<IssuedInvitation> => {
    const r = await who.call('POST', INVITATIONS, { email, role });
    expect(r.status, r.text).toBe(201);
    return r.body as unknown as IssuedInvitation;
  };
  const pending = async (who: Person) => {
    const r = await who.call('GET', INVITATIONS);
    expect(r.status, r.text).toBe(200);
    return (r.body.results as Invitation[]).map((i) => i.id);
  };
  const status = async (token: string) => (await api.get(lookupPath(token))).body.status;
  const auditOf = async (org: number, action: string) =>
    server.db.query<{ actor_id: unknown; target_type: string; target_id: unknown; changes: unknown }>(
      'select actor_id, target_type, target_id, changes from audit_log where org_id = $1 and action = $2 order by id',
      [org, action],
    );
  const snapshot = () => tablesSnapshot(server.db, ['invitations', 'memberships', 'users', 'audit_log']);
  const failures = () => failedLines(server.logs);

  describe('D28 making and managing invitations', () => {
    test('D28 an invitation is 201 with its link shown once: email lower-cased, role, inviter, 7 days, token and path /invite/<token>', async () => {
      const { org, owner } = await team();
      const email = newEmail();
      const r = await owner.call('POST', INVITATIONS, { email: email.toUpperCase(), role: 'viewer' });
      expect(r.status, r.text).toBe(201);
      const issued = r.body as unknown as IssuedInvitation;
      expect(Object.keys(issued).sort()).toEqual(['created_at', 'email', 'expires_at', 'id', 'invited_by', 'path', 'role', 'token']);
      expect(issued).toMatchObject({
        email,
        role: 'viewer',
        invited_by: { id: owner.id },
        created_at: new Date(clock.now()).toISOString(),
        path: `/invite/${issued.token}`,
      });
      expect(Date.parse(issued.expires_at) - Date.parse(issued.created_at)).toBe(7 * DAY);
      expect(issued.token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
      const list = await owner.call('GET', INVITATIONS);
      expect(list.body.results).toEqual([
        { id: issued.id, email, role: 'viewer', invited_by: issued.invited_by, created_at: issued.created_at, expires_at: issued.expires_at },
      ]);
      expect(list.text).not.toContain(issued.token);
      const [entry, ...more] = await auditOf(org.id, 'invitation.created');
      expect(more).toEqual([]);
      expect([Number(entry!.actor_id), entry!.target_type, Number(entry!.target_id)]).toEqual([owner.id, 'invitation', issued.id]);
    });

    test('D28 the token is stored only as a hash: no column holds it and token_hash is not the token', async () => {
      const { owner } = await team();
      const issued = await invite(owner);
      const columns = (await server.db.query<{ column_name: string }>("select column_name from information_schema.columns where table_name = 'invitations'")).map(
        (c) => c.column_name,
      );
      expect(columns).toContain('token_hash');
      expect(columns).not.toContain('token');
      const [row] = await server.db.query<Record<string, unknown>>('select * from invitations where id = $1', [issued.id]);
      for (const [column, value] of Object.entries(row!)) expect(String(value), column).not.toContain(issued.token);
      expect(row!.token_hash).not.toBe(issued.token);
    });

    test('D28 only an owner may invite an owner: an admin gets 403 owner_required and nothing is written', async () => {
      const { owner, admin } = await team();
      const before = await snapshot();
      expectError(await admin.call('POST', INVITATIONS, { email: newEmail(), role: 'owner' }), 403, 'owner_required');
      expect(await snapshot()).toBe(before);
      const issued = await invite(owner, newEmail(), 'owner');
      expect(issued.role).toBe('owner');
      // …nor withdraw or renew an owner's invitation.
      expectError(await admin.call('DELETE', `${INVITATIONS}${issued.id}/`), 403, 'owner_required');
      expectError(await admin.call('POST', `${INVITATIONS}${issued.id}/renew/`), 403, 'owner_required');
      expect(await status(issued.token)).toBe('pending');
    });

    test("D28 inviting someone who is already a member is 409 already_member, whatever the email's case", async () => {
      const { owner, admin } = await team();
      const r = await owner.call('POST', INVITATIONS, { email: admin.email.toUpperCase(), role: 'member' });
      expectError(r, 409, 'already_member');
      expect(r.body.field).toBe('email');
      expect(await pending(owner)).toEqual([]);
    });

    test('D28 a second invitation while one is pending is 409 already_invited; an expired one is replaced', async () => {
      const { owner } = await team();
      const email = newEmail();
      const first = await invite(owner, email);
      expectError(await owner.call('POST', INVITATIONS, { email, role: 'admin' }), 409, 'already_invited');
      const elsewhere = await team();
      await invite(elsewhere.owner, email); // per organization
      clock.advance(7 * DAY + SECOND);
      await owner.signIn();
      expect(await pending(owner)).toEqual([]);
      const second = await invite(owner, email, 'admin');
      expect(second.id).not.toBe(first.id);
      expect(await pending(owner)).toEqual([second.id]);
      expect(await status(second.token)).toBe('pending');
    });

    test("D19 an invitation's email and role are checked: 400 naming the field", async () => {
      const { owner } = await team();
      for (const [body, field] of [
        [{ email: 'not-an-email', role: 'member' }, 'email'],
        [{ email: newEmail(), role: 'boss' }, 'role'],
        [{ role: 'member' }, 'email'],
      ] as const) {
        const r = await owner.call('POST', INVITATIONS, body);
        expectError(r, 400);
        expect(r.body.field).toBe(field);
      }
    });

    test('D10 without team:manage invitations can be neither listed nor made: 403 permission_denied', async () => {
      const org = await newOrg();
      const member = await person(org, 'member');
      expectError(await member.call('GET', INVITATIONS), 403, 'permission_denied');
      expectError(await member.call('POST', INVITATIONS, { email: newEmail(), role: 'viewer' }), 403, 'permission_denied');
    });

    test('D28 D30 revoking: 204, no longer listed, the link says revoked and cannot be accepted, invitation.revoked written', async () => {
      const { org, owner, admin } = await team();
      const issued = await invite(owner);
      expect((await admin.call('DELETE', `${INVITATIONS}${issued.id}/`)).status).toBe(204);
      expect(await pending(owner)).toEqual([]);
      expect(await status(issued.token)).toBe('revoked');
      expectError(await api.post(acceptPath(issued.token), { first_name: 'Rae', password: NEW_PASSWORD }), 410, 'invitation_revoked');
      expectError(await admin.call('DELETE', `${INVITATIONS}${issued.id}/`), 404);
      const entries = await auditOf(org.id, 'invitation.revoked');
      expect(entries.map((e) => [Number(e.actor_id), Number(e.target_id)])).toEqual([[admin.id, issued.id]]);
    });

    test('D28 D30 renewing: 201 with a new token and 7 more days; the old token answers revoked and cannot be accepted', async () => {
      const { org, owner, admin } = await team();
      const old = await invite(owner, newEmail(), 'viewer');
      clock.advance(DAY);
      await admin.signIn();
      const r = await admin.call('POST', `${INVITATIONS}${old.id}/renew/`);
      expect(r.status, r.text).toBe(201);
      const renewed = r.body as unknown as IssuedInvitation;
      expect(renewed).toMatchObject({ email: old.email, role: 'viewer', invited_by: { id: admin.id }, path: `/invite/${renewed.token}` });
      expect(renewed.token).not.toBe(old.token);
      expect(Date.parse(renewed.expires_at)).toBe(clock.now() + 7 * DAY);
      expect(await pending(admin)).toEqual([renewed.id]);
      expect(await status(old.token)).toBe('revoked');
      expectError(await api.post(acceptPath(old.token), { first_name: 'Old', password: NEW_PASSWORD }), 410, 'invitation_revoked');
      expect((await api.post(acceptPath(renewed.token), { first_name: 'New', password: NEW_PASSWORD })).status).toBe(200);
      const [entry] = await auditOf(org.id, 'invitation.renewed');
      expect(entry).toMatchObject({ target_type: 'invitation', changes: expect.objectContaining({ replaces: old.id }) as unknown });
      expect(Number(entry!.target_id)).toBe(renewed.id);
    });

    test('D28 two invitations for one email at once: one 201, the other 409 already_invited, never a 500', async () => {
      for (let round = 0; round < 5; round++) {
        const { owner, admin } = await team();
        const email = newEmail();
        const replies = await Promise.all([owner.call('POST', INVITATIONS, { email, role: 'member' }), admin.call('POST', INVITATIONS, { email, role: 'viewer' })]);
        expect(replies.map((r) => r.status).sort(), [...replies.map((r) => r.text.slice(0, 120)), ...failures()].join(' | ')).toEqual([201, 409]);
        expect(await pending(owner)).toHaveLength(1);
      }
    });

    test("D9 an admin of one organization cannot list, make, revoke or renew another's invitations, and nothing changes", async () => {
      const mine = await team();
      const theirs = await team();
      const issued = await invite(theirs.owner);
      const before = await snapshot();
      const { admin } = mine;
      expectError(await admin.call('GET', INVITATIONS, undefined, theirs.org.id), 403, 'not_a_member');
      expectError(await admin.call('POST', INVITATIONS, { email: newEmail(), role: 'member' }, theirs.org.id), 403, 'not_a_member');
      expectError(await admin.call('DELETE', `${INVITATIONS}${issued.id}/`, undefined, theirs.org.id), 403, 'not_a_member');
      expectError(await admin.call('POST', `${INVITATIONS}${issued.id}/renew/`, undefined, theirs.org.id), 403, 'not_a_member');
      expectError(await admin.call('DELETE', `${INVITATIONS}${issued.id}/`), 404);
      expectError(await admin.call('POST', `${INVITATIONS}${issued.id}/renew/`), 404);
      expect(await pending(admin)).toEqual([]);
      expect(await snapshot()).toBe(before);
      expect(await status(issued.token)).toBe('pending');
    });
  });

  describe('D28 the public invitation page', () => {
    test('D28 the look-up shows organization, inviter, email, role, status pending and whether an account exists', async () => {
      const { org, owner } = await team();
      const issued = await invite(owner, newEmail(), 'viewer');
      const [inviter] = await server.db.query<{ first_name: string }>('select first_name from users where id = $1', [owner.id]);
      const r = await api.get(lookupPath(issued.token));
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({
        organization: { id: org.id, name: org.name, logo_url: null },
        inviter: inviter!.first_name,
        email: issued.email,
        role: 'viewer',
        status: 'pending',
        has_account: false,
      });
      expect((await api.get(lookupPath((await invite(owner, (await person(null)).email)).token))).body.has_account).toBe(true);
    });

    test('D28 an unknown token is 404 invitation_not_found; a malformed one is a 400', async () => {
      expectError(await api.get(lookupPath(randomBytes(32).toString('base64url'))), 404, 'invitation_not_found');
      expectError(await api.post(acceptPath(randomBytes(32).toString('base64url')), { first_name: 'Ann', password: NEW_PASSWORD }), 404, 'invitation_not_found');
      for (const bad of ['short', `${'a'.repeat(30)}!`, `${'a'.repeat(30)}%20`, 'a'.repeat(101)]) {
        expectError(await api.get(lookupPath(bad)), 400);
        expectError(await api.post(acceptPath(bad), { first_name: 'Ann', password: NEW_PASSWORD }), 400);
      }
    });

    test('D18 many unknown tokens from one address end in 429 with Retry-After; another address is not held back', async () => {
      const { owner } = await team();
      const real = await invite(owner);
      const from = client(server.url, newAddress());
      const answers: number[] = [];
      for (let i = 0; i < 8; i++) answers.push((await from.get(lookupPath(randomBytes(32).toString('base64url')))).status);
      expect(answers).toEqual([404, 404, 404, 404, 404, 429, 429, 429]);
      const held = await from.get(lookupPath(randomBytes(32).toString('base64url')));
      expectError(held, 429);
      expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await from.get(lookupPath(real.token))).status).toBe(429); // a guesser learns nothing more
      expect((await from.post(acceptPath(real.token), { first_name: 'Guess', password: NEW_PASSWORD })).status).toBe(429);
      expect(await status(real.token)).toBe('pending');
    });

    test('D28 D30 a signed-in person with the invited email joins at once with the invited role; invitation.accepted written', async () => {
      const { org, owner } = await team();
      const invitee = await person(null);
      const issued = await invite(owner, invitee.email, 'admin');
      const r = await api.post(acceptPath(issued.token), {}, { Authorization: `Bearer ${invitee.token}` });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ org_id: org.id });
      const [membership] = await server.db.query<{ role: string }>('select role from memberships where org_id = $1 and user_id = $2', [org.id, invitee.id]);
      expect(membership?.role).toBe('admin');
      expect((await invitee.call('GET', INVITATIONS, undefined, org.id)).status).toBe(200);
      expect(await status(issued.token)).toBe('accepted');
      expect(await pending(owner)).toEqual([]);
      const entries = await auditOf(org.id, 'invitation.accepted');
      expect(entries.map((e) => [Number(e.actor_id), e.target_type, Number(e.target_id)])).toEqual([[invitee.id, 'member', invitee.id]]);
    });

    test('D28 signed in with another email is 403 email_mismatch and nobody joins', async () => {
      const { owner } = await team();
      const issued = await invite(owner);
      const other = await person(null);
      const before = await snapshot();
      expectError(await api.post(acceptPath(issued.token), {}, { Authorization: `Bearer ${other.token}` }), 403, 'email_mismatch');
      expect(await snapshot()).toBe(before);
      expect(await status(issued.token)).toBe('pending');
    });

    test('D28 D17 a new person gives a first name and a password and gets an account, a session and the invited role', async () => {
      const { org, owner } = await team();
      const issued = await invite(owner, newEmail(), 'viewer');
      const r = await api.post(acceptPath(issued.token), { first_name: '  Nina ', password: NEW_PASSWORD });
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['access_token', 'org_id', 'refresh_expires_at', 'refresh_token', 'session_id']);
      expect(r.body.org_id).toBe(org.id);
      const [user] = await server.db.query<{ id: unknown; first_name: string; password_hash: string }>(
        'select id, first_name, password_hash from users where email = $1',
        [issued.email],
      );
      expect(user!.first_name).toBe('Nina');
      expect(user!.password_hash).toMatch(/^\$scrypt\$/);
      expect(user!.password_hash).not.toContain(NEW_PASSWORD);
      const me = await api.me(r.body.access_token as string, org.id);
      expect(me.body.organizations).toEqual([{ id: org.id, name: org.name, logo_url: null, require_mfa: false }]);
      expect(me.body.role).toBe('viewer');
      expect((await api.login(issued.email, NEW_PASSWORD)).status).toBe(200);
      const [entry] = await auditOf(org.id, 'invitation.accepted');
      expect(Number(entry!.actor_id)).toBe(Number(user!.id));
    });

    test('D28 a new account needs a first name and a password of at least 12 characters: 400 naming the field, nothing made', async () => {
      const { owner } = await team();
      const issued = await invite(owner);
      const before = await snapshot();
      const short = await api.post(acceptPath(issued.token), { first_name: 'Nina', password: 'x'.repeat(11) });
      expectError(short, 400);
      expect(short.body.field).toBe('password');
      const nameless = await api.post(acceptPath(issued.token), { password: NEW_PASSWORD });
      expectError(nameless, 400);
      expect(nameless.body.field).toBe('first_name');
      expect(await snapshot()).toBe(before);
      expect((await api.post(acceptPath(issued.token), { first_name: 'Nina', password: 'x'.repeat(12) })).status).toBe(200);
    });

    test("D28 an existing account's email without signing in is 409 account_exists and nothing changes", async () => {
      const { owner } = await team();
      const known = await person(null);
      const issued = await invite(owner, known.email);
      const before = await snapshot();
      expectError(await api.post(acceptPath(issued.token), { first_name: 'Imposter', password: NEW_PASSWORD }), 409, 'account_exists');
      expect(await snapshot()).toBe(before);
      expect((await api.login(known.email, known.password)).status).toBe(200);
    });

    test('D28 a used invitation is 410 invitation_accepted', async () => {
      const { owner } = await team();
      const issued = await invite(owner);
      expect((await api.post(acceptPath(issued.token), { first_name: 'Una', password: NEW_PASSWORD })).status).toBe(200);
      expectError(await api.post(acceptPath(issued.token), { first_name: 'Una', password: NEW_PASSWORD }), 410, 'invitation_accepted');
      const token = tokens(await api.login(issued.email, NEW_PASSWORD)).access_token;
      expectError(await api.post(acceptPath(issued.token), {}, { Authorization: `Bearer ${token}` }), 410, 'invitation_accepted');
    });

    test('D28 an invitation expires after 7 days: the look-up says expired and accepting is 410 invitation_expired', async () => {
      const { owner } = await team();
      const issued = await invite(owner);
      clock.advance(7 * DAY - SECOND);
      expect(await status(issued.token)).toBe('pending');
      clock.advance(2 * SECOND);
      expect(await status(issued.token)).toBe('expired');
      expectError(await api.post(acceptPath(issued.token), { first_name: 'Late', password: NEW_PASSWORD }), 410, 'invitation_expired');
      expect(await server.db.query('select 1 from users where email = $1', [issued.email])).toEqual([]);
    });

    test('D28 two new accounts for one email at once (invited by two organizations): one joins, the other 409 account_exists, never a 500', async () => {
      for (let round = 0; round < 5; round++) {
        const email = newEmail();
        const [one, two] = [await invite((await team()).owner, email), await invite((await team()).owner, email)];
        const replies = await Promise.all([one, two].map((i) => api.post(acceptPath(i.token), { first_name: 'Twin', password: NEW_PASSWORD })));
        expect(replies.map((r) => r.status).sort(), [...replies.map((r) => r.text.slice(0, 120)), ...failures()].join(' | ')).toEqual([200, 409]);
        expect(await server.db.query('select 1 from users where lower(email) = $1', [email])).toHaveLength(1);
      }
    });
  });

  describe('D30 secrets never leak', () => {
    /** Invites, renews, accepts (a new account) and fails on purpose; returns the secrets it used and every answer. */
    const exercise = async () => {
      const { owner } = await team();
      const first = await invite(owner);
      const renewed = (await owner.call('POST', `${INVITATIONS}${first.id}/renew/`)).body as unknown as IssuedInvitation;
      const answers: Reply[] = [await api.get(lookupPath(renewed.token))];
      answers.push(await api.post(acceptPath(renewed.token), { first_name: 'Sid', password: 'too-short' }));
      answers.push(await api.post(acceptPath(first.token), { first_name: 'Sid', password: NEW_PASSWORD }));
      answers.push(await api.post(acceptPath(renewed.token), { first_name: 'Sid', password: NEW_PASSWORD }));
      answers.push(await api.post(acceptPath(renewed.token), { first_name: 'Sid', password: NEW_PASSWORD }));
      const [user] = await server.db.query<{ password_hash: string }>('select password_hash from users where email = $1', [first.email]);
      const hashes = await server.db.query<{ token_hash: string }>('select token_hash from invitations where id in ($1, $2)', [first.id, renewed.id]);
      return { answers, secrets: [first.token, renewed.token, NEW_PASSWORD, 'too-short', user!.password_hash, ...hashes.map((h) => h.token_hash)] };
    };

    test('D30 no audit entry contains an invitation token, its hash, a password or a password hash', async () => {
      const { secrets } = await exercise();
      const rows = await server.db.query<{ t: string }>('select a::text as t from audit_log a');
      for (const row of rows) for (const secret of secrets) expect(row.t).not.toContain(secret);
    });

    test('D19 no error body contains an invitation token, a password or a hash', async () => {
      const { answers, secrets } = await exercise();
      expect(answers.map((a) => a.status)).toEqual([200, 400, 410, 200, 410]);
      for (const a of answers.filter((x) => x.status >= 400)) for (const secret of secrets) expect(a.text).not.toContain(secret);
    });

    test('D30 no server log line contains an invitation token, a password or a hash', async () => {
      const { secrets } = await exercise();
      const leaks = server.logs.filter((line) => secrets.some((secret) => line.includes(secret)));
      expect(leaks.map((l) => l.slice(0, 160))).toEqual([]);
    });
  });
});
