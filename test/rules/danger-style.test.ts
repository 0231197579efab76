// D25: one danger style for what deletes, removes or discards: one class in the stylesheet, used by the screens.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const root = path.resolve(__dirname, '../..');

test('D25 the stylesheet has one danger class (btn-danger) and the screens use no other', () => {
  const css = ['login.css', 'app.css'].map((f) => readFileSync(path.join(root, 'static', f), 'utf8')).join('\n');
  const classes = new Set([...css.matchAll(/\.([a-z][\w-]*(?:danger|delete)[\w-]*)/g)].map((m) => m[1]));
  expect([...classes]).toEqual(['btn-danger']);
  const src = path.join(root, 'src');
  for (const rel of readdirSync(src, { recursive: true }) as string[]) {
    if (!rel.endsWith('.tsx')) continue;
    const names = [...readFileSync(path.join(src, rel), 'utf8').matchAll(/className="([^"]*)"/g)].flatMap((m) => m[1]!.split(' '));
    expect(
      names.filter((n) => /danger|delete/.test(n) && n !== 'btn-danger'),
      rel,
    ).toEqual([]);
  }
});
