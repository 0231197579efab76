import { describe, expect, it } from 'vitest';
import '../ui/no-console';
import { FILTERED, scrub, scrubBreadcrumb, scrubRecordingEvent, scrubReplayEvent, scrubString } from '../../src/telemetry/scrub';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwiZXhwIjo5OTk5OTk5OTk5fQ.c2lnbmF0dXJl';

describe('D37 secret-bearing paths (contract/secret-paths.ts)', () => {
  const TOKEN = 'QTGJx9w2b6Yq0mZpL3vE7rT1kN8sH4dF5gJ2aC0vE7';

  it('D37 reports /invite/{token} as /invite/[redacted] in URLs, messages, breadcrumbs and transactions', () => {
    expect(scrubString(`https://crm.example/invite/${TOKEN}`)).toBe('https://crm.example/invite/[redacted]');
    expect(scrubString(`/invite/${TOKEN}?from=mail#top`)).toBe('/invite/[redacted]?from=mail#top');
    expect(scrubString(`GET /api/v1/invitations/${TOKEN}/accept/ failed`)).toBe('GET /api/v1/invitations/[redacted]/accept/ failed');
    expect(scrubString(`/reset/${TOKEN}`)).toBe('/reset/[redacted]');
    const crumb = scrubBreadcrumb({ category: 'navigation', data: { from: '/login', to: `/invite/${TOKEN}` } });
    expect(crumb.data).toEqual({ from: '/login', to: '/invite/[redacted]' });
    const event = scrub({ transaction: `/invite/${TOKEN}`, request: { url: `http://localhost/invite/${TOKEN}` } });
    expect(JSON.stringify(event)).not.toContain(TOKEN);
  });

  it("D37 session replay: recorded URLs and the replay event's urls are redacted; DOM snapshots are left alone", () => {
    const meta = scrubRecordingEvent({ type: 4, data: { href: `https://crm.example/invite/${TOKEN}`, width: 1, height: 1 }, timestamp: 1 });
    expect(meta.data.href).toBe('https://crm.example/invite/[redacted]');
    const nav = scrubRecordingEvent({ type: 5, data: { tag: 'performanceSpan', payload: { op: 'navigation.navigate', description: `/invite/${TOKEN}` } }, timestamp: 1 });
    expect(JSON.stringify(nav)).not.toContain(TOKEN);
    const snapshot = { type: 2, data: { node: { attributes: { href: '/customers/1' } } }, timestamp: 1 };
    expect(scrubRecordingEvent(snapshot)).toBe(snapshot);
    const replay = scrubReplayEvent({ type: 'replay_event', urls: [`http://localhost/invite/${TOKEN}`, 'http://localhost/dashboard'] });
    expect(replay.urls).toEqual(['http://localhost/invite/[redacted]', 'http://localhost/dashboard']);
  });

  it("D37 leaves other paths alone (the team page's invitations by id, customers)", () => {
    expect(scrubString('/api/v1/team/invitations/12/revoke/')).toBe('/api/v1/team/invitations/12/revoke/');
    expect(scrubString('/customers/42/edit')).toBe('/customers/42/edit');
  });
});

describe('scrubbing (D13)', () => {
  it('D13 JWT-looking strings are filtered anywhere in a string', () => {
    expect(scrubString(`token was ${JWT} in the message`)).toBe(`token was ${FILTERED} in the message`);
  });

  it('D13 bearer credentials and token or password query parameters are filtered', () => {
    expect(scrubString('Authorization: Bearer abc.def')).toBe(`Authorization: Bearer ${FILTERED}`);
    expect(scrubString('/cb?access_token=abc&x=1&refresh_token=def#password=ghi')).toBe(
      `/cb?access_token=${FILTERED}&x=1&refresh_token=${FILTERED}#password=${FILTERED}`,
    );
  });

  it('D13 secrets inside text: key=value pairs and JSON held in a string', () => {
    expect(scrubString('retry with refresh_token=r1; ok')).toBe(`retry with refresh_token=${FILTERED}; ok`);
    expect(scrubString('{"email":"a@b.c","password":"hu\\"nter2","remember_me":true}')).toBe(`{"email":"a@b.c","password":"${FILTERED}","remember_me":true}`);
    expect(scrubString('{"access_token": "abc", "refresh_token":"def"}')).toBe(`{"access_token": "${FILTERED}", "refresh_token":"${FILTERED}"}`);
  });

  it('D13 tokens, passwords, refresh_token and Authorization headers are filtered by key at any depth', () => {
    const out = scrub({
      headers: { Authorization: 'Bearer x', 'X-Organization-ID': '1' },
      extra: { body: { email: 'a@b.c', password: 'hunter2', refresh_token: 'r', access_token: 'a' } },
      list: [{ accessToken: 'a', newPassword: 'p' }],
    });
    expect(out).toEqual({
      headers: { Authorization: FILTERED, 'X-Organization-ID': '1' },
      extra: { body: { email: 'a@b.c', password: FILTERED, refresh_token: FILTERED, access_token: FILTERED } },
      list: [{ accessToken: FILTERED, newPassword: FILTERED }],
    });
  });

  it('D13 the bodies of /v1/auth/ calls are dropped', () => {
    const out = scrub({ request: { url: 'https://app.test/api/v1/auth/login/', method: 'POST', data: '{"email":"a","password":"b"}' } });
    expect(out.request).toEqual({ url: 'https://app.test/api/v1/auth/login/', method: 'POST', data: FILTERED });
    const other = scrub({ request: { url: '/api/v1/customers/', data: { name: 'Ann' } } });
    expect(other.request.data).toEqual({ name: 'Ann' });
  });

  it('D54 two-step sign-in: the bodies of /v1/account/ calls are dropped; challenges, recovery codes and otpauth secrets are filtered anywhere', () => {
    const confirm = scrub({ request: { url: '/api/v1/account/mfa/confirm/', method: 'POST', data: '{"code":"123456"}' } });
    expect(confirm.request.data).toBe(FILTERED);
    const out = scrub({ extra: { challenge: 'c'.repeat(43), recovery_codes: ['abcde-fghij'], recovery_code: 'abcde-fghij', otpauth_uri: 'otpauth://…' } });
    expect(out.extra).toEqual({ challenge: FILTERED, recovery_codes: FILTERED, recovery_code: FILTERED, otpauth_uri: FILTERED });
    expect(scrubString('otpauth://totp/CRM:a%40b.c?secret=JBSWY3DPEHPK3PXP&issuer=CRM')).not.toContain('JBSWY3DPEHPK3PXP');
    expect(scrubString('{"challenge":"abc123xyz","recovery_code":"abcde-fghij"}')).toBe(`{"challenge":"${FILTERED}","recovery_code":"${FILTERED}"}`);
    const crumb = scrubBreadcrumb({ category: 'fetch', data: { method: 'POST', url: '/api/v1/auth/mfa/', status_code: 200, body: '{"challenge":"c","code":"1"}' } });
    expect(crumb.data).toEqual({ method: 'POST', url: '/api/v1/auth/mfa/', status_code: 200 });
  });

  it('D13 an auth-call breadcrumb keeps only method, URL and status', () => {
    const crumb = scrubBreadcrumb({
      category: 'fetch',
      data: { method: 'POST', url: '/api/v1/auth/refresh/', status_code: 200, body: '{"refresh_token":"r"}', response: { access_token: JWT } },
    });
    expect(crumb).toEqual({ category: 'fetch', data: { method: 'POST', url: '/api/v1/auth/refresh/', status_code: 200 } });
  });

  it('scrubbing copies: the original is left alone, and cycles do not loop', () => {
    const original: Record<string, unknown> = { password: 'p' };
    original.self = original;
    const out = scrub(original);
    expect(original.password).toBe('p');
    expect(out.password).toBe(FILTERED);
    expect(out.self).toBe(FILTERED);
  });
});
