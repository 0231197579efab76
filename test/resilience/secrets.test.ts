// The secrets check itself (secrets.ts), which the resilience suites run after their requests: it must
// find a secret wherever and however it was written, and never print the secret it found.
import { describe, expect, test } from 'vitest';
import { DEMO_PASSWORD } from '../server/helpers';
import { assertNoSecrets, findSecrets, withoutDemoBanner } from './secrets';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
const PASSWORD = 'p@ss word/with+odd"chars';
const secrets = [
  { label: 'access token', value: TOKEN },
  { label: 'password', value: PASSWORD },
];
const clean = {
  logs: ['GET /api/v1/customers/ 200 3.1ms'],
  bodies: ['{"detail":"Invalid email or password","code":"invalid_credentials"}'],
  auditRows: [{ action: 'customer.created' }],
  secrets,
};

describe('assertNoSecrets', () => {
  test('passes when no secret is anywhere', () => {
    expect(() => assertNoSecrets(clean)).not.toThrow();
  });

  test('finds a secret in a log line, an error body or an audit row, as is, URL-encoded or JSON-escaped', () => {
    expect(findSecrets({ ...clean, logs: [`POST /api/x Bearer ${TOKEN}`] })).toHaveLength(1);
    expect(findSecrets({ ...clean, logs: [`GET /api/x?password=${encodeURIComponent(PASSWORD)}`] })).toHaveLength(1);
    expect(findSecrets({ ...clean, bodies: [JSON.stringify({ detail: `bad ${PASSWORD}`, code: 'x' })] })).toHaveLength(1);
    expect(findSecrets({ ...clean, auditRows: [{ changes: { token: TOKEN } }] })).toHaveLength(1);
  });

  test('finds each of many secrets, also those sharing their first characters, at the end of a text', () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ label: `token ${i}`, value: `${TOKEN}-${i}` }));
    const found = findSecrets({ ...clean, logs: ['GET / 200', `x ${TOKEN}-7`, `y ${TOKEN}-499`], secrets: many });
    // token 7 also matches as the start of "…-7" only; token 49 and 4 are the beginnings of "…-499".
    expect(found.map((f) => f.split(' in ')[0])).toEqual(['token 4', 'token 7', 'token 49', 'token 499']);
    expect(found[1]).toContain('in log #1');
  });

  test('names where a secret was found without printing it', () => {
    let message = '';
    try {
      assertNoSecrets({ ...clean, logs: ['first line', `${'x'.repeat(90)} token=${TOKEN} end`] });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('access token in log #1');
    expect(message).not.toContain(TOKEN.slice(0, 8));
  });

  test('D37 finds a secret-bearing path (contract/secret-paths.ts) left unredacted in a log line, without printing it', () => {
    const token = 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5';
    const logs = [`2026-01-01T00:00:00Z GET /invite/${token} 200 1.0ms`, `POST /api/v1/invitations/${token}/accept/ 404 2.0ms`, `GET /reset/${token} 200 1ms`];
    const found = findSecrets({ ...clean, logs });
    expect(found.map((f) => f.split(':')[0])).toEqual([
      'secret segment of /invite/ in log #0',
      'secret segment of /v1/invitations/ in log #1',
      'secret segment of /reset/ in log #2',
    ]);
    expect(found.join('\n')).not.toContain(token.slice(0, 12));
    const redacted = logs.map((l) => l.split(token).join('[redacted]'));
    expect(() => assertNoSecrets({ ...clean, logs: redacted })).not.toThrow();
  });

  test('refuses secrets too short to look for, rather than passing silently', () => {
    expect(() => assertNoSecrets({ ...clean, secrets: [{ label: 'pin', value: '1234' }] })).toThrow(/too short/);
  });
});

describe('withoutDemoBanner', () => {
  // The built server's start-up output (server/main.ts), then request lines.
  const started = [
    'CRM listening on http://127.0.0.1:1/ (API at /api/v1, database: PGlite in data)',
    `Seeded demo data. Demo accounts (password "${DEMO_PASSWORD}"; SEED=none for none):`,
    '  owner@demo.test  owner of Acme Plumbing, Beacon Electric',
    'POST /api/v1/auth/login/ 200 812.0ms',
  ];

  test('removes exactly the line naming the demo accounts, on a first start and on a restart', () => {
    const restarted = [started[0]!, `Demo accounts (password "${DEMO_PASSWORD}"; SEED=none for none):`, started[2]!];
    expect(withoutDemoBanner([...started, ...restarted])).toEqual([started[0], started[2], started[3], restarted[0], restarted[2]]);
    expect(() => assertNoSecrets({ ...clean, logs: withoutDemoBanner(started), secrets: [{ label: 'demo password', value: DEMO_PASSWORD }] })).not.toThrow();
  });

  test('keeps every other line holding the demo password, even one that starts or ends like the banner', () => {
    const leaks = [
      `login failed for owner@demo.test with "${DEMO_PASSWORD}"`,
      `Demo accounts (password "${DEMO_PASSWORD}"; SEED=none for none): and the body {"password":"${DEMO_PASSWORD}"}`,
      `POST /x Seeded demo data. Demo accounts (password "${DEMO_PASSWORD}"; SEED=none for none):`,
    ];
    expect(withoutDemoBanner([...started, ...leaks])).toEqual([started[0], started[2], started[3], ...leaks]);
    expect(findSecrets({ ...clean, logs: withoutDemoBanner([...started, ...leaks]), secrets: [{ label: 'demo password', value: DEMO_PASSWORD }] })).toEqual([
      expect.stringContaining('demo password in log #3'),
    ]);
  });
});
