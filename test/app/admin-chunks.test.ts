// D28–D30: the team, permissions, activity and invitation pages are lazily loaded chunks of their own,
// each under 10 KB gzip with what it brings along beyond the first bundle, and none of their code
// loads before the login form. Built with the app's own esbuild options.
import * as esbuild from 'esbuild';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
/** The limit for a screen's own chunk. */
const PAGE_CHUNK_MAX_GZIP = 10 * 1024;
const PAGES = ['src/pages/team/TeamPage.tsx', 'src/pages/permissions/PermissionsPage.tsx', 'src/pages/activity/ActivityPage.tsx', 'src/pages/invite/InvitePage.tsx'];
/** Modules only these pages use: none may reach the JS loaded before the login form. */
const PAGE_ONLY = ['src/pages/team/', 'src/pages/permissions/', 'src/pages/activity/', 'src/pages/invite/', 'src/api/team.ts', 'contract/team.ts'];

type Outputs = esbuild.Metafile['outputs'];
let outputs: Outputs;
let gzip: Map<string, number>;

beforeAll(async () => {
  // build.mjs is plain JavaScript (no types): its esbuild options for the app, as the bench uses them.
  const { appOptions } = (await import(/* @vite-ignore */ pathToFileURL(path.join(root, 'build.mjs')).href)) as {
    appOptions: (o: { outdir: string }) => esbuild.BuildOptions;
  };
  const options = { ...appOptions({ outdir: path.join(root, 'dist-test') }), entryPoints: { main: path.join(root, 'src/main.tsx') }, write: false, metafile: true };
  const result = (await esbuild.build(options)) as esbuild.BuildResult & { metafile: esbuild.Metafile; outputFiles: esbuild.OutputFile[] };
  outputs = result.metafile.outputs;
  gzip = new Map(result.outputFiles.map((f) => [path.relative(root, f.path), gzipSync(f.contents, { level: 9 }).length]));
}, 60_000);

function closure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const i of outputs[file]!.imports) if (i.kind === 'import-statement') closure(i.path, seen);
  return seen;
}
const entry = (suffix: string) => Object.keys(outputs).find((f) => outputs[f]!.entryPoint?.endsWith(suffix));

describe('D28–D30 page chunks', () => {
  test.each(PAGES)('%s is a lazily loaded chunk of its own, under 10 KB gzip with what it brings along', (page) => {
    const first = closure(entry('src/main.tsx')!);
    const file = entry(page);
    expect(file, `${page} is not an entry of its own`).toBeTruthy();
    expect(first.has(file!)).toBe(false);
    const bytes = [...closure(file!)].filter((f) => !first.has(f)).reduce((n, f) => n + gzip.get(f)!, 0);
    expect(bytes).toBeLessThan(PAGE_CHUNK_MAX_GZIP);
  });

  test('nothing of these pages loads before the login form', () => {
    const first = [...closure(entry('src/main.tsx')!)];
    const inputs = first.flatMap((f) => Object.keys(outputs[f]!.inputs));
    expect(inputs.filter((i) => PAGE_ONLY.some((p) => i.startsWith(p)))).toEqual([]);
  });
});
