// STYLE "Small React-free cores": each stays small enough to read in one sitting (aim: ≤ 250 lines).
// Issue 18: every source file under src/, server/ and contract/ (migrations included) holds to the same.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const ROOT = path.join(import.meta.dirname, '../..');
const CORE_MAX_LINES = 250;
const CORES = ['src/session/controller.ts', 'src/session/login.ts', 'src/http/client.ts', 'src/query/cache.ts', 'src/lib/store.ts', 'src/lib/storage.ts'];
const SOURCE_DIRS = ['src', 'server', 'contract'];
const SOURCE_FILE = /\.(ts|tsx|mjs)$/;

const lineCount = (file: string) => readFileSync(path.join(ROOT, file), 'utf8').split('\n').length;

test.each(CORES)(`STYLE %s stays under ${CORE_MAX_LINES} lines`, (file) => {
  expect(lineCount(file)).toBeLessThanOrEqual(CORE_MAX_LINES);
});

const sources = SOURCE_DIRS.flatMap((dir) =>
  readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => SOURCE_FILE.test(f))
    .map((f) => path.join(dir, f).split(path.sep).join('/')),
);

test(`STYLE every source file under ${SOURCE_DIRS.join(', ')} stays under ${CORE_MAX_LINES} lines`, () => {
  expect(sources.length).toBeGreaterThan(CORES.length);
  expect(sources.filter((file) => lineCount(file) > CORE_MAX_LINES)).toEqual([]);
});
