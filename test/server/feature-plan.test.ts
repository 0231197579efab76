// STYLE "Routes are data": a feature's route files hold route definitions only, its SQL is in its repo,
// and no feature imports another (what two share is a server module of its own). Each file is read as
// esbuild compiles it (comments and types gone), so prose in comments never counts and code does.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const FEATURES = path.join(ROOT, 'server/features');

/**
 * Crossings known and being removed elsewhere: features/audit is reworked into one audit view on another
 * branch. An entry that no longer holds fails too, so the list only shrinks.
 */
const KNOWN_CROSSINGS: string[] = [];

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

/** The file as JavaScript: what runs, without comments or types. */
const code = (source: string) => transformSync(source, { loader: 'ts', format: 'esm' }).code;

/** What makes code SQL: a query run, a `sql` tagged template, or a statement's words in its text. */
const SQL_SIGNS: [RegExp, string][] = [
  [/\.(query|unsafe)\s*[(<]/, 'runs a query'],
  [/\bsql\s*`/i, 'has a sql`` template'],
  [/\bselect\b[\s\S]*?\bfrom\s+\w/i, 'has a select'],
  [/\binsert\s+into\b/i, 'has an insert'],
  [/\bupdate\s+\w+\s+set\b/i, 'has an update'],
  [/\bdelete\s+from\b/i, 'has a delete'],
  [/\bfor\s+(no\s+key\s+)?update\b/i, 'takes a row lock'],
  [/\b(create|alter|drop)\s+(table|index)\b/i, 'changes the schema'],
];

/** The SQL a source file holds, each sign by line of the compiled code. */
function sqlIn(source: string): string[] {
  return code(source)
    .split('\n')
    .flatMap((line, i) => SQL_SIGNS.filter(([re]) => re.test(line)).map(([, what]) => `${i + 1} ${what}`));
}

/** The feature folders a feature's file imports other than its own (static, type-only, re-export or dynamic import). */
function crossings(file: string): string[] {
  const own = path.relative(FEATURES, file).split(path.sep)[0];
  const name = path.relative(FEATURES, file).split(path.sep).join('/');
  const source = readFileSync(file, 'utf8'); // not compiled: a type-only import is a dependency too
  const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm)].map(
    (m) => (m[1] ?? m[2] ?? m[3])!,
  );
  return specifiers
    .filter((s) => s.startsWith('.'))
    .map((s) => path.relative(FEATURES, path.resolve(path.dirname(file), s)))
    .filter((rel) => !rel.startsWith('..') && rel.includes(path.sep))
    .map((rel) => rel.split(path.sep)[0]!)
    .filter((feature) => feature !== own)
    .map((feature) => `${name} → ${feature}`);
}

/** A feature's route files: routes.ts, and any other file that defines routes. */
const routeFiles = () => files(FEATURES).filter((f) => path.basename(f) === 'routes.ts' || /\bdefineRoute\s*\(/.test(readFileSync(f, 'utf8')));

describe('STYLE the server matches its plan', () => {
  test('STYLE no route file under server/features holds SQL: it calls its repo', () => {
    const found = routeFiles().flatMap((f) => sqlIn(readFileSync(f, 'utf8')).map((s) => `${path.relative(ROOT, f)}: ${s}`));
    expect(found).toEqual([]);
    expect(routeFiles().length).toBeGreaterThanOrEqual(8); // the check reads the files it should
  });

  test('STYLE the SQL check finds a query, a sql template and SQL in strings, not prose in comments', () => {
    const sample = [
      "await tx.query('select 1');",
      'const a = sql`select * from t`;',
      "const b = 'delete from customers where id = $1';",
      'const c = `update users set name = ${a}`;',
      "const d = 'select 1 from organizations where id = $1 for no key update';",
      "const e = ['customers:update', 'customer.deleted', 'Only an owner may delete an owner', 'Update it from the menu'];",
      '// a comment may say: select the rows from customers, then delete from the list',
      'export const all = [a, b, c, d, e];',
    ].join('\n');
    expect(sqlIn(sample)).toEqual([
      '1 runs a query',
      '2 has a sql`` template',
      '2 has a select',
      '3 has a delete',
      '4 has an update',
      '5 has a select',
      '5 takes a row lock',
    ]);
  });

  test('STYLE no feature imports another feature (what two share is a server module)', () => {
    const found = files(FEATURES).flatMap(crossings);
    expect(found.filter((c) => !KNOWN_CROSSINGS.includes(c))).toEqual([]);
    expect(KNOWN_CROSSINGS.filter((c) => !found.includes(c))).toEqual([]); // a crossing removed leaves the list
  });
});
