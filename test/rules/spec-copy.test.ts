// The specification lives in the repository (docs/spec/) so every `D…` and `SPEC §…` cited in the code
// can be followed; the copy must stay equal to the product's shared specification beside the repository.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const root = path.join(import.meta.dirname, '../..');
const shared = path.join(root, '../shared');
const FILES = ['SPEC.md', 'DECISIONS.md', 'STYLE.md'];
// Beside a clone of the repository (CI, developers) the shared folder is there; a lone copy of the
// repository has nothing to compare against and says so rather than passing silently.
const sharedHere = existsSync(path.join(shared, 'SPEC.md'));

test.each(FILES)('docs/spec/%s is in the repository', (file) => {
  expect(readFileSync(path.join(root, 'docs/spec', file), 'utf8').length).toBeGreaterThan(1000);
});

test.skipIf(!sharedHere && !process.env.CI).each(FILES)('docs/spec/%s equals the shared specification', (file) => {
  expect(readFileSync(path.join(root, 'docs/spec', file), 'utf8')).toBe(readFileSync(path.join(shared, file), 'utf8'));
});
