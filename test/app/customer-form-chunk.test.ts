// Add and Edit Customer load as chunks of their own (app/routes.ts) that share the form: under 10 KB gzip
// each with what they bring along beyond the first bundle, and none of the form in the first bundle
// (the login form's JS stays as it was). Built with the app's own esbuild options, as the bench does.
import * as esbuild from 'esbuild';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
/** The limit for a form page's lazily loaded chunk. */
const FORM_PAGE_MAX_GZIP = 10 * 1024;
const PAGES = ['src/pages/customers/AddCustomerPage.tsx', 'src/pages/customers/EditCustomerPage.tsx'];

type Outputs = esbuild.Metafile['outputs'];
let outputs: Outputs;
let gzip: Map<string, number>;

beforeAll(async () => {
  const { appOptions } = (await import(/* @vite-ignore */ pathToFileURL(path.join(root, 'build.mjs')).href)) as {
    appOptions: (o: { outdir: string }) => esbuild.BuildOptions;
  };
  const options = { ...appOptions({ outdir: path.join(root, 'dist-test') }), entryPoints: { main: path.join(root, 'src/main.tsx') }, write: false, metafile: true };
  const result = await esbuild.build(options);
  outputs = result.metafile!.outputs;
  gzip = new Map(result.outputFiles!.map((f) => [path.relative(root, f.path), gzipSync(f.contents, { level: 9 }).length]));
}, 60_000);

function closure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const i of outputs[file]!.imports) if (i.kind === 'import-statement') closure(i.path, seen);
  return seen;
}
const entry = (suffix: string) => Object.keys(outputs).find((f) => outputs[f]!.entryPoint?.endsWith(suffix))!;

describe('customer form chunks', () => {
  test.each(PAGES)('%s is a lazily loaded chunk under 10 KB gzip with what it brings along', (page) => {
    const first = closure(entry('src/main.tsx'));
    const own = [...closure(entry(page))].filter((f) => !first.has(f));
    const bytes = own.reduce((n, f) => n + gzip.get(f)!, 0);
    expect(bytes).toBeLessThan(FORM_PAGE_MAX_GZIP);
  });

  test('none of the form is in the JS loaded before the login form', () => {
    const first = [...closure(entry('src/main.tsx'))].flatMap((f) => Object.keys(outputs[f]!.inputs));
    expect(first.filter((i) => /pages\/customers\/(CustomerForm|form\/|AddCustomerPage|EditCustomerPage)/.test(i))).toEqual([]);
  });
});
