// SPEC §3 Browser storage keys: only the session (src/session/, with lib/storage.ts and lib/jwt.ts that it
// uses) reads or writes the session's keys; a screen asks the session (adopt, takeToastReason,
// returnAfterLogin, state.userId …). A scan of the app's source, so a new file that reaches past it fails.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { KEYS } from '../../src/lib/storage';

const ROOT = path.join(import.meta.dirname, '../..');
const ALLOWED = ['src/session/', 'src/lib/'];

/** Every key but the theme (ui/theme.ts, D11) belongs to the session. */
const SESSION_KEYS = Object.entries(KEYS).filter(([name]) => name !== 'theme');
/** The storage helpers that write or read those keys, and the token store itself. */
const HELPERS = ['saveTokens', 'adoptTokens', 'storeRedirect', 'readRedirect', 'clearSessionStorage', 'SESSION_KEYS', 'decodePayload', 'subject'];

/** What in `source` touches the session's storage, as short descriptions (empty: nothing). */
function sessionStorageUses(source: string): string[] {
  const found: string[] = [];
  for (const [name, key] of SESSION_KEYS) {
    if (new RegExp(`\\bKEYS\\s*(?:\\.\\s*${name}\\b|\\[\\s*['"\`]${name}['"\`])`).test(source)) found.push(`KEYS.${name}`);
    // a key written out in a storage call: localStorage.getItem('access_token'), storage.set("toast_reason", …)
    if (new RegExp(`(?:\\.(?:getItem|setItem|removeItem)|\\b[sS]torage\\.(?:get|set|remove|getInt))\\(\\s*['"\`]${key}['"\`]`).test(source)) found.push(`'${key}'`);
  }
  for (const name of HELPERS) if (new RegExp(`import[^;]*\\b${name}\\b[^;]*from`).test(source)) found.push(`import ${name}`);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.(ts|tsx)$/.test(e.name) ? [rel] : [];
  });
}

test('SPEC §3 Browser storage keys: no file outside src/session/ and src/lib/ touches the session’s keys', () => {
  const files = sourceFiles('src').filter((f) => !ALLOWED.some((dir) => f.startsWith(dir)));
  expect(files.length).toBeGreaterThan(50); // the scan sees the app
  const offenders = files.flatMap((f) => sessionStorageUses(readFileSync(path.join(ROOT, f), 'utf8')).map((use) => `${f}: ${use}`));
  expect(offenders).toEqual([]);
});

test('SPEC §3 the scan catches each way of touching the keys (so the test above can fail)', () => {
  expect(sessionStorageUses('storage.remove(KEYS.toastReason);')).toEqual(['KEYS.toastReason']);
  expect(sessionStorageUses('session.storage.get(KEYS.accessToken)')).toEqual(['KEYS.accessToken']);
  expect(sessionStorageUses("localStorage.getItem('access_token')")).toEqual(["'access_token'"]);
  expect(sessionStorageUses('storage.set("hydration_failed", "true")')).toEqual(["'hydration_failed'"]);
  expect(sessionStorageUses("import { saveTokens } from '../../session/tokens';")).toEqual(['import saveTokens']);
  expect(sessionStorageUses("import { KEYS, storeRedirect } from '../lib/storage';")).toEqual(['import storeRedirect']);
  expect(sessionStorageUses("import { subject } from '../lib/jwt';")).toEqual(['import subject']);
  // the theme is not the session's; a form field or a scrubber's deny list named like a key is no storage call
  expect(sessionStorageUses("storage.set(KEYS.theme, next); form.set('remember_me', true); deny: ['access_token']")).toEqual([]);
});
