// What loads when: the first bundle stays few files (bench/bundle.mjs holds its byte budget), and the
// customers list is a chunk of its own under 10 KB gzip. Built with the app's own esbuild options.
import * as esbuild from 'esbuild';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
/** D26 / the limit for a screen's own chunk. */
const PAGE_CHUNK_MAX_GZIP = 10 * 1024;

type Outputs = esbuild.Metafile['outputs'];
let outputs: Outputs;
let gzip: Map<string, number>;

beforeAll(async () => {
  // build.mjs is plain JavaScript (no types): its esbuild options for the app, as the bench uses them.
  const { appOptions } = (await import(/* @vite-ignore */ pathToFileURL(path.join(root, 'build.mjs')).href)) as {
    appOptions: (o: { outdir: string }) => esbuild.BuildOptions;
  };
  const options = { ...appOptions({ outdir: path.join(root, 'dist-test') }), entryPoints: { main: path.join(root, 'src/main.tsx') }, write: false, metafile: true };
  const result = await esbuild.build(options);
  outputs = result.metafile!.outputs;
  gzip = new Map(result.outputFiles!.map((f) => [path.relative(root, f.path), gzipSync(f.contents, { level: 9 }).length]));
}, 60_000);

/** A chunk and every chunk it imports statically (what loading it loads). */
function closure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const i of outputs[file]!.imports) if (i.kind === 'import-statement') closure(i.path, seen);
  return seen;
}
const entry = (suffix: string) => Object.keys(outputs).find((f) => outputs[f]!.entryPoint?.endsWith(suffix))!;
const hasAppCode = (file: string) => Object.keys(outputs[file]!.inputs).some((i) => i.startsWith('src/'));

describe('chunks', () => {
  test('STYLE the first bundle is the entry plus one file shared with the lazily loaded screens (ui/first-bundle.ts)', () => {
    const first = [...closure(entry('src/main.tsx'))].filter(hasAppCode);
    expect(first.length, first.join(', ')).toBeLessThanOrEqual(2);
  });

  test('D26 the customers list is a lazily loaded chunk of its own, under 10 KB gzip with what it brings along', () => {
    const first = closure(entry('src/main.tsx'));
    const page = entry('src/pages/customers/CustomersPage.tsx');
    expect(first.has(page)).toBe(false);
    const own = [...closure(page)].filter((f) => !first.has(f));
    const bytes = own.reduce((n, f) => n + gzip.get(f)!, 0);
    expect(bytes).toBeLessThan(PAGE_CHUNK_MAX_GZIP);
  });
});
