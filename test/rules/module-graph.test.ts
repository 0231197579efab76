// STYLE the app's module graph, read from one esbuild build of src/main.tsx with build.mjs's options
// (its metafile), counting static imports and import() alike: no cycle, no import of a higher layer,
// no page folder importing another; and no import for side effects alone. The layers are listed in
// docs/development.md. It is the real build: build.mjs adds, removes and rewrites no import.
import * as esbuild from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** Each module's layer: a module may import its own layer or a lower one (docs/development.md). */
const RANKS: [prefix: string, rank: number][] = [
  ['contract/', 0],
  ['src/lib/', 1],
  ['src/http/', 2],
  ['src/session/', 3],
  ...['router', 'query', 'ui', 'api', 'drafts', 'audit', 'telemetry', 'boot'].map((d): [string, number] => [`src/${d}/`, 4]),
  ['src/pages/', 5],
  ['src/shell/', 6],
  ['src/app/', 7],
  ['src/main.tsx', 8],
];
const rankOf = (file: string) => RANKS.find(([prefix]) => file.startsWith(prefix))?.[1];
/** `pages/a/…` → 'a'; undefined outside pages/. */
const pageFolder = (file: string) => /^src\/pages\/([^/]+)\//.exec(file)?.[1];

const KINDS = new Set(['import-statement', 'dynamic-import']);
/** Our modules (src/, contract/) and the ones each imports statically or with import(). */
let graph: Map<string, string[]>;

beforeAll(async () => {
  // build.mjs is plain JavaScript (no types): its esbuild options for the app.
  const { appOptions } = (await import(/* @vite-ignore */ pathToFileURL(path.join(root, 'build.mjs')).href)) as {
    appOptions: (o: { outdir: string }) => esbuild.BuildOptions;
  };
  const options = appOptions({ outdir: path.join(root, 'dist-test') });
  const result = await esbuild.build({ ...options, write: false, metafile: true });
  const ours = (file: string) => !file.startsWith('node_modules/') && !file.startsWith('static/'); // a module of server/ or test/ has no layer: it fails
  graph = new Map();
  for (const [file, input] of Object.entries(result.metafile!.inputs)) {
    if (!ours(file)) continue;
    graph.set(
      file,
      input.imports.filter((i) => KINDS.has(i.kind) && ours(i.path)).map((i) => i.path),
    );
  }
}, 60_000);

/** Every import that breaks `rule`, as 'from → to'. */
function imports(rule: (from: string, to: string) => boolean): string[] {
  return [...graph].flatMap(([from, tos]) => tos.filter((to) => rule(from, to)).map((to) => `${from} → ${to}`));
}

/** One cycle through each group of modules that reach each other (Tarjan), as 'a → b → … → a'. */
function cycles(): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = stack.splice(stack.indexOf(v));
    if (group.length > 1 || graph.get(v)?.includes(v)) found.push(cycleIn(new Set(group), v));
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** A shortest path from `start` back to itself inside `group` (breadth first). */
function cycleIn(group: Set<string>, start: string): string {
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!group.has(w)) continue;
      if (w === start) {
        const chain: string[] = [];
        for (let u = v; u !== start; u = from.get(u)!) chain.unshift(u);
        return [start, ...chain, start].join(' → ');
      }
      if (from.has(w)) continue;
      from.set(w, v);
      queue.push(w);
    }
  }
  return start;
}

describe('STYLE module graph', () => {
  test('STYLE every module of src/ and contract/ has a layer', () => {
    expect([...graph.keys()].filter((f) => rankOf(f) === undefined)).toEqual([]);
  });

  test('STYLE no import cycle, counting import()', () => {
    expect(cycles()).toEqual([]);
  });

  test('STYLE no module imports a higher layer (contract < lib < http < session < router, query, ui, api, drafts, audit, telemetry < pages < shell < app < main.tsx)', () => {
    expect(imports((from, to) => rankOf(to)! > rankOf(from)!)).toEqual([]);
  });

  test('STYLE no page folder imports another (a module shared by pages goes below pages/)', () => {
    expect(imports((from, to) => pageFolder(from) !== undefined && pageFolder(to) !== undefined && pageFolder(from) !== pageFolder(to))).toEqual([]);
  });

  test('STYLE no module of src/ imports one of ours for its side effects alone', () => {
    const src = path.join(root, 'src');
    const bare = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((rel) => /\.tsx?$/.test(rel))
      .flatMap((rel) => [...readFileSync(path.join(src, rel), 'utf8').matchAll(/^import\s+['"](\.[^'"]*)['"]/gm)].map((m) => `src/${rel} → ${m[1]}`));
    expect(bare).toEqual([]);
  });
});
