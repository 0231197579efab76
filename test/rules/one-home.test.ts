// Issue 18: a rule, limit or message both sides share has one home, contract/. These scans fail when one of
// them is written by hand again in the app (src/), the server (server/) or the test fakes (test/helpers/).
// Released migrations are left out: they keep the values they were written with (server/migrations/).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { importCountsText } from '../../contract/import-summary';
import { INVITATION_UNKNOWN, INVITATION_UNUSABLE, TEAM_REFUSAL_WORDS } from '../../contract/team';

const ROOT = path.join(import.meta.dirname, '../..');

function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx|mjs)$/.test(f))
    .map((f) => path.join(dir, f))
    .filter((file) => !file.startsWith(path.join('server', 'migrations')))
    .map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }));
}

const CODE = [...sources('src'), ...sources('server')];
const WITH_FAKES = [...CODE, ...sources('test/helpers')];

/** Each file where the pattern occurs, with the line. */
function written(files: { file: string; text: string }[], pattern: RegExp): string[] {
  return files.flatMap(({ file, text }) => text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
}

describe('one home for what the app and the server share', () => {
  test('time units and session lifetimes are defined in contract/ only (contract/time.ts, contract/session.ts)', () => {
    const defined =
      /\b(?:const|let)\s+(?:DAY_MS|HOUR_MS|MINUTE_MS|REMEMBER_ME_LIFETIME_MS|(?:SHORT_)?SESSION_LIFETIME_MS|SHORT_LIFETIME_MS|MAX_SESSION_AGE_MS|REFRESH_GRACE_MS)\s*=/;
    expect(written(WITH_FAKES, defined)).toEqual([]);
  });

  test('a day in milliseconds is DAY_MS, never written out', () => {
    const day = /\b86_?400_?000\b|\b24\s*\*\s*(?:3600|60\s*\*\s*60)\s*\*\s*1_?000\b|\b(?:3600|60\s*\*\s*60)\s*\*\s*24\s*\*\s*1_?000\b/;
    expect(written(WITH_FAKES, day)).toEqual([]);
  });

  test('the longest email is EMAIL_MAX_LENGTH (contract/customers.ts), never 254 by hand', () => {
    expect(written(CODE, /\b254\b/)).toEqual([]);
  });

  test('D28 the invitation messages and the team refusals are worded in contract/team.ts only', () => {
    const words = [INVITATION_UNKNOWN, ...Object.values(INVITATION_UNUSABLE), TEAM_REFUSAL_WORDS.own_role(), 'Only an owner may ', 'The last owner cannot '];
    for (const w of words) expect(written(WITH_FAKES, new RegExp(w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))), w).toEqual([]);
  });

  test('D27 the import summary sentence is built in contract/import-summary.ts only', () => {
    expect(importCountsText({ created: 12, updated: 3, skipped: 1 })).toBe('12 created, 3 updated, 1 skipped');
    expect(written(WITH_FAKES, /\bcreated, \$\{/)).toEqual([]);
  });
});
