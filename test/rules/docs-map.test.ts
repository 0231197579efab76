// The code maps (the README's and docs/development.md's) name files that exist, so the map cannot rot:
// every path in a map's first column is a path in the repository, and every other file or folder a map
// names (`app/App.tsx`, `db-gate.ts`) is the end of one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const root = path.join(import.meta.dirname, '../..');
const SKIP = new Set(['node_modules', 'dist', 'dist-test', 'data', 'coverage', 'test-results', '.git']);

/** Every file and folder of the repository, relative to it, folders ending in '/'. */
function tree(dir = '', out: string[] = []): string[] {
  for (const d of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (SKIP.has(d.name)) continue;
    const rel = dir + d.name;
    out.push(d.isDirectory() ? `${rel}/` : rel);
    if (d.isDirectory()) tree(`${rel}/`, out);
  }
  return out;
}
const paths = tree();

/** The text of a document's section, from its heading to the next heading of the same level. */
function section(file: string, heading: string): string {
  const text = readFileSync(path.join(root, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, `${file} has no "${heading}"`).toBeGreaterThan(-1);
  const level = heading.split(' ')[0]!;
  const end = text.indexOf(`\n${level} `, start + heading.length + 2);
  return text.slice(start, end === -1 ? undefined : end);
}

// A file (a known extension) or a folder (a trailing slash); not a URL path, not a build output, not
// 'Link/Navigate' or '401/403'.
const NAME = /^(?![./$])(?!dist\/)[\w@.-]+(\/[\w@.-]+)*\/?$/;
const looksLikePath = (s: string) => NAME.test(s) && (s.endsWith('/') || /\.(tsx?|mjs|js|json|css|html|md)$/.test(s));

/** What a map names: the first column of its code blocks, and the paths elsewhere in it. */
function mentions(text: string): { first: string[]; other: string[] } {
  const first: string[] = [];
  const other: string[] = [];
  const blocks = [...text.matchAll(/```\n([\s\S]*?)```/g)].map((m) => m[1]!);
  for (const block of blocks) {
    for (const line of block.split('\n')) {
      const [head, ...rest] = line.split(/\s+/);
      if (head && looksLikePath(head)) first.push(head);
      for (const w of rest) {
        const word = w.replace(/^[(`'"]+|[)`'",:;.]+$/g, '');
        if (looksLikePath(word)) other.push(word);
      }
    }
  }
  const prose = text.replace(/```\n[\s\S]*?```/g, '');
  for (const m of prose.matchAll(/`([^`\s]+)`/g)) if (looksLikePath(m[1]!)) other.push(m[1]!);
  return { first, other };
}

/** True when some file or folder of the repository is `name` or ends with `/name`. */
const exists = (name: string) => existsSync(path.join(root, name)) || paths.some((p) => p.endsWith(`/${name}`) || p === `${name}/`);

describe('the code maps match the tree', () => {
  const MAPS: [string, string][] = [
    ['README.md', '## Map of the code'],
    ['docs/development.md', '## Code map'],
  ];
  test.each(MAPS)('%s (%s): every path in its first column exists, and every other file it names', (file, heading) => {
    const { first, other } = mentions(section(file, heading));
    expect(first.length).toBeGreaterThan(10);
    expect.soft(first.filter((p) => !existsSync(path.join(root, p)))).toEqual([]);
    expect([...new Set(other)].filter((p) => !exists(p))).toEqual([]);
  });
});
