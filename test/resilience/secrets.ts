// Secrets must never leave the server by the wrong door (docs/security.md): no access or refresh token,
// password, password hash, invitation token or JWT secret in the server's log, in an error answer, or
// in an audit entry. The resilience suites (hostile input, tenant isolation, crash, load) collect what
// they saw and call assertNoSecrets at the end.
import type { Db } from '../../server/db';
import { DEMO_PASSWORD } from '../server/helpers';

export interface Secret {
  /** What it is, for the report (the value itself is never printed). */
  label: string;
  value: string;
}

export interface SecretsInput {
  /** The server's log lines (TestServer.logs). */
  logs: readonly string[];
  /** Bodies of error answers (status ≥ 400) the suite received. */
  bodies: readonly string[];
  /** audit_log rows (see auditRows). */
  auditRows: readonly unknown[];
  secrets: readonly Secret[];
}

/** Shorter values would match by chance (a 5-letter password inside a customer's name). */
export const MIN_SECRET_CHARS = 8;

/** The spellings a secret could take in a log or body: as is, URL-encoded, JSON-escaped. */
function spellings(value: string): string[] {
  return [...new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])];
}

/** Where each secret was found; empty when none was. */
export function findSecrets({ logs, bodies, auditRows, secrets }: SecretsInput): string[] {
  const places: [string, readonly string[]][] = [
    ['log', logs],
    ['error body', bodies],
    ['audit_log row', auditRows.map((r) => JSON.stringify(r))],
  ];
  const found: string[] = [];
  for (const secret of secrets) {
    if (secret.value.length < MIN_SECRET_CHARS) continue;
    const forms = spellings(secret.value);
    for (const [place, texts] of places) {
      const at = texts.findIndex((t) => forms.some((f) => t.includes(f)));
      if (at >= 0) {
        // Hidden before shortening, so no part of it is shown either.
        const shown = forms.reduce((t, f) => t.split(f).join('[secret]'), texts[at]!);
        found.push(`${secret.label} in ${place} #${at}: ${shown.slice(0, 100)}`);
      }
    }
  }
  return found;
}

/** Throws naming every secret found in the logs, error bodies or audit rows (never printing one). */
export function assertNoSecrets(input: SecretsInput): void {
  const tooShort = input.secrets.filter((s) => s.value.length < MIN_SECRET_CHARS).map((s) => s.label);
  if (tooShort.length) throw new Error(`secrets too short to look for: ${tooShort.join(', ')}`);
  const found = findSecrets(input);
  if (found.length) throw new Error(`secrets leaked:\n${found.join('\n')}`);
}

/** Every audit entry, as rows. */
export const auditRows = (db: Db) => db.query('select * from audit_log order by id');

/**
 * The secrets any test server holds: the JWT secret it signs with, every password hash in its users
 * table and the demo password. Add the tokens and passwords the suite itself used.
 */
export async function serverSecrets(db: Db, jwtSecret: string): Promise<Secret[]> {
  const users = await db.query<{ email: string; password_hash: string }>('select email, password_hash from users order by id');
  return [
    { label: 'JWT secret', value: jwtSecret },
    { label: 'demo password', value: DEMO_PASSWORD },
    ...users.flatMap((u) => [
      { label: `password hash of ${u.email}`, value: u.password_hash },
      // The derived key alone (the PHC string's last part), should anything print only that.
      { label: `password key of ${u.email}`, value: u.password_hash.split('$').pop() ?? '' },
    ]),
  ];
}

/** The key a running test server signs access tokens with: JWT_SECRET, or the one it generated and stored. */
export async function jwtSecretOf(server: { db: Db; config: { jwtSecret: string | null } }): Promise<string> {
  if (server.config.jwtSecret) return server.config.jwtSecret;
  const [row] = await server.db.query<{ value: string }>("select value from app_settings where key = 'jwt_secret'");
  if (!row) throw new Error('the server has no JWT secret');
  return row.value;
}
