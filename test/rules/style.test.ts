// STYLE "Small React-free cores": each stays small enough to read in one sitting (aim: ≤ 250 lines).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const CORE_MAX_LINES = 250;
const CORES = ['src/session/controller.ts', 'src/session/login.ts', 'src/http/client.ts', 'src/query/cache.ts', 'src/lib/store.ts', 'src/lib/storage.ts'];

test.each(CORES)(`STYLE %s stays under ${CORE_MAX_LINES} lines`, (file) => {
  const lines = readFileSync(path.join(import.meta.dirname, '../..', file), 'utf8').split('\n').length;
  expect(lines).toBeLessThanOrEqual(CORE_MAX_LINES);
});
