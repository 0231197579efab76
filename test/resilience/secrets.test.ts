// The secrets check itself (secrets.ts), which the resilience suites run after their requests: it must
// find a secret wherever and however it was written, and never print the secret it found.
import { describe, expect, test } from 'vitest';
import { assertNoSecrets, findSecrets } from './secrets';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
const PASSWORD = 'p@ss word/with+odd"chars';
const secrets = [{ label: 'access token', value: TOKEN }, { label: 'password', value: PASSWORD }];
const clean = { logs: ['GET /api/v1/customers/ 200 3.1ms'], bodies: ['{"detail":"Invalid email or password","code":"invalid_credentials"}'], auditRows: [{ action: 'customer.created' }], secrets };

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

  test('refuses secrets too short to look for, rather than passing silently', () => {
    expect(() => assertNoSecrets({ ...clean, secrets: [{ label: 'pin', value: '1234' }] })).toThrow(/too short/);
  });
});
