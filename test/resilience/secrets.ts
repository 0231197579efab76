// Secrets must never leave the server by the wrong door (docs/security.md): no access or refresh token,
// password, password hash, invitation token, JWT secret or two-step sign-in secret, recovery code or
// challenge (D54, mfa-journey.ts) in the server's log, in an error answer, or
// in an audit entry. The resilience suites (hostile input, tenant isolation, crash, load) collect what
// they saw and call assertNoSecrets at the end.
import { unredactedSecretPaths } from '../../contract/secret-paths';
import type { Db, Queryable } from '../../server/db';
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

/** At most this many findings are listed per place (a load run may leak thousands of tokens). */
const MAX_REPORTED_PER_PLACE = 15;

/** Shorter values would match by chance (a 5-letter password inside a customer's name). */
export const MIN_SECRET_CHARS = 8;

/** The spellings a secret could take in a log or body: as is, URL-encoded, JSON-escaped. */
function spellings(value: string): string[] {
  return [...new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])];
}

/**
 * Where each secret was found, place by place (log, error body, audit_log row), and every log line with
 * an unredacted secret path segment (D37); empty when none was. Every spelling is at least MIN_SECRET_CHARS long,
 * so each text is scanned once, looking up its MIN_SECRET_CHARS-long pieces among the spellings' first
 * ones: a load run's thousands of tokens against its thousands of log lines stay cheap.
 */
export function findSecrets({ logs, bodies, auditRows, secrets }: SecretsInput): string[] {
  const places: [string, readonly string[]][] = [
    ['log', logs],
    ['error body', bodies],
    ['audit_log row', auditRows.map((r) => JSON.stringify(r))],
  ];
  const searched = secrets.map((secret) => ({ secret, forms: secret.value.length < MIN_SECRET_CHARS ? [] : spellings(secret.value) }));
  const byStart = new Map<string, { at: number; form: string }[]>();
  searched.forEach(({ forms }, at) => {
    for (const form of forms) {
      const key = form.slice(0, MIN_SECRET_CHARS);
      byStart.set(key, [...(byStart.get(key) ?? []), { at, form }]);
    }
  });
  /** [secret][place]: the first text holding it. */
  const first = searched.map(() => places.map(() => -1));
  places.forEach(([, texts], place) => {
    texts.forEach((text, t) => {
      for (let i = 0; i + MIN_SECRET_CHARS <= text.length; i++) {
        for (const { at, form } of byStart.get(text.slice(i, i + MIN_SECRET_CHARS)) ?? []) {
          const seen = first[at]!;
          if (seen[place]! < 0 && text.startsWith(form, i)) seen[place] = t;
        }
      }
    });
  });
  const found: string[] = [];
  // D37: a path the list in contract/secret-paths.ts names is never written with its secret segment,
  // whether or not the suite knew that secret.
  logs.forEach((line, t) => {
    for (const prefix of new Set(unredactedSecretPaths(line)))
      found.push(`secret segment of ${prefix} in log #${t}: ${line.replace(/\S{20,}/g, '[long]').slice(0, 100)}`);
  });
  places.forEach(([place, texts], p) => {
    searched.forEach(({ secret, forms }, at) => {
      const t = first[at]![p]!;
      if (t < 0) return;
      // Hidden before shortening, so no part of it is shown either.
      const shown = forms.reduce((text, f) => text.split(f).join('[secret]'), texts[t]!);
      found.push(`${secret.label} in ${place} #${t}: ${shown.slice(0, 100)}`);
    });
  });
  return found;
}

/** Throws naming every secret found in the logs, error bodies or audit rows (never printing one). */
export function assertNoSecrets(input: SecretsInput): void {
  const tooShort = input.secrets.filter((s) => s.value.length < MIN_SECRET_CHARS).map((s) => s.label);
  if (tooShort.length) throw new Error(`secrets too short to look for: ${tooShort.join(', ')}`);
  const found = findSecrets(input);
  if (!found.length) return;
  const report = ['log', 'error body', 'audit_log row'].flatMap((place) => {
    const here = found.filter((f) => f.includes(` in ${place} #`));
    const more = here.length > MAX_REPORTED_PER_PLACE ? [`… and ${here.length - MAX_REPORTED_PER_PLACE} more in ${place}`] : [];
    return [...here.slice(0, MAX_REPORTED_PER_PLACE), ...more];
  });
  throw new Error(`secrets leaked (${found.length} found):\n${report.join('\n')}`);
}

/**
 * D3: the start-up banner's line naming the demo accounts prints their password, public by design. The
 * built server's log (`node dist/server/main.mjs`) has it once per start; this removes exactly that
 * line and keeps every other one, the demo password anywhere else still counts as a leak.
 */
export function withoutDemoBanner(logs: readonly string[]): string[] {
  const banner = `Demo accounts (password "${DEMO_PASSWORD}"; SEED=none for none):`;
  return logs.filter((line) => line !== banner && line !== `Seeded demo data. ${banner}`);
}

/** Every audit entry, as rows. */
export const auditRows = (db: Queryable) => db.query('select * from audit_log order by id');

/**
 * The secrets any test server holds: the JWT secret it signs with, every password hash in its users
 * table and the demo password. Add the tokens and passwords the suite itself used.
 */
export async function serverSecrets(db: Queryable, jwtSecret: string): Promise<Secret[]> {
  const users = await db.query<{ email: string; password_hash: string }>('select email, password_hash from users order by id');
  // D54: what two-step sign-in keeps, sealed or hashed, is never printed either.
  const mfa = await db.query<{ label: string; value: string }>(
    `select 'sealed TOTP secret of user ' || user_id as label, secret_sealed as value from user_mfa
     union all select 'recovery code hash of user ' || user_id, code_hash from mfa_recovery_codes
     union all select 'login challenge hash of user ' || user_id, token_hash from mfa_challenges`,
  );
  return [
    ...mfa,
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
