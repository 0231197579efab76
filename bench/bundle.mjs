// Bundle budgets, from one build of the app with its own esbuild options:
// - the gzip bytes of the JS a browser has fetched by the time the login page is idle (the entry and
//   every chunk it imports statically: nothing else loads there), against a bare React 19 page built
//   with the same esbuild settings in the same run: at most 1.20×; and none of it Sentry (D13).
// - the shell every route loads (app/shell-screen.tsx, ui/load-error.tsx): under 10 KB gzip beyond the
//   first bundle, as a page.
// - each lazily loaded page (every src/pages/**/*Page.tsx that is an entry of its own): under 10 KB gzip
//   with what it brings along beyond the first bundle and the shell (test/app/chunks.test.ts holds the
//   same rule).
// - the styles the first paint waits for (static/login.css): under 3 KB gzip.
//   node bench/bundle.mjs [--check]
import * as esbuild from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { appOptions } from '../build.mjs';
import { Verdicts } from './lib/report.mjs';

export const BUDGET_RATIO = 1.2;
/** A lazily loaded page's own JS, with what it brings along beyond the first bundle: under this. */
export const PAGE_CHUNK_MAX_GZIP = 10 * 1024;
/** The styles the first paint waits for (static/login.css), minified: under this. */
export const LOGIN_CSS_MAX_GZIP = 3 * 1024;

/** An output file and every chunk it imports statically (what loading it loads). */
function closure(outputs, file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const imp of outputs[file].imports) if (imp.kind === 'import-statement') closure(outputs, imp.path, seen);
  return seen;
}

const sizes = (files, outdir) =>
  [...files].map((f) => {
    const code = readFileSync(path.resolve(f));
    return { file: path.relative(outdir, path.resolve(f)), raw: code.length, gzip: gzipSync(code, { level: 9 }).length };
  });

/** The entry's output plus every chunk it imports statically (what loads before first render). */
function initialJs(metafile, entrySuffix, outdir) {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((f) => outputs[f].entryPoint?.endsWith(entrySuffix));
  return sizes(closure(outputs, entry), outdir);
}

/** The first bundle, and with it what every route's screen loads before its page (the shell). */
function appStart(outputs, entrySuffix) {
  const entry = (suffix) => Object.keys(outputs).find((f) => outputs[f].entryPoint?.endsWith(suffix));
  const first = closure(outputs, entry(entrySuffix));
  return { first, start: closure(outputs, entry('src/ui/load-error.tsx'), closure(outputs, entry('src/app/shell-screen.tsx'), new Set(first))) };
}

/** The shell: the gzip bytes every route's screen loads beyond the first bundle. */
function shellChunk(metafile, entrySuffix, outdir) {
  const { first, start } = appStart(metafile.outputs, entrySuffix);
  const files = sizes(
    [...start].filter((f) => !first.has(f)),
    outdir,
  );
  return { files: files.length, gzip: sum(files, 'gzip') };
}

/** Each lazily loaded page: its source, and the gzip bytes it loads beyond the app's start. */
function pageChunks(metafile, entrySuffix, outdir) {
  const outputs = metafile.outputs;
  const first = appStart(outputs, entrySuffix).start;
  return Object.keys(outputs)
    .filter((f) => /^src\/pages\/.*Page\.tsx$/.test(outputs[f].entryPoint ?? ''))
    .map((f) => {
      const beyond = sizes(
        [...closure(outputs, f)].filter((c) => !first.has(c)),
        outdir,
      );
      return { page: outputs[f].entryPoint, files: beyond.length, gzip: sum(beyond, 'gzip') };
    })
    .sort((a, b) => a.page.localeCompare(b.page));
}

const sum = (files, k) => files.reduce((n, f) => n + f[k], 0);

export async function measure() {
  const tmp = mkdtempSync(path.join(tmpdir(), 'bundle-bench-'));
  try {
    const appOut = path.join(tmp, 'app');
    const app = await esbuild.build({ ...appOptions({ outdir: appOut }), entryPoints: { main: path.resolve('src/main.tsx') } });
    const floorSrc = path.join(tmp, 'floor.tsx');
    writeFileSync(floorSrc, "import { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')!).render(<p>Hello</p>);\n");
    const floorOut = path.join(tmp, 'floor');
    const floor = await esbuild.build({ ...appOptions({ outdir: floorOut }), entryPoints: { floor: floorSrc }, nodePaths: [path.resolve('node_modules')] });
    const appFiles = initialJs(app.metafile, 'src/main.tsx', appOut);
    const floorFiles = initialJs(floor.metafile, 'floor.tsx', floorOut);
    const initial = new Set(appFiles.map((f) => f.file));
    const sentryInInitial = Object.entries(app.metafile.outputs).some(
      ([f, o]) => initial.has(path.relative(appOut, path.resolve(f))) && Object.keys(o.inputs).some((i) => i.includes('@sentry')),
    );
    const pages = pageChunks(app.metafile, 'src/main.tsx', appOut);
    const shell = shellChunk(app.metafile, 'src/main.tsx', appOut);
    const css = {};
    for (const name of ['login', 'app']) {
      const out = await esbuild.build({ entryPoints: [path.resolve(`static/${name}.css`)], bundle: true, minify: true, write: false, logLevel: 'warning' });
      css[name] = gzipSync(out.outputFiles[0].contents, { level: 9 }).length;
    }
    return { appFiles, floorFiles, app: sum(appFiles, 'gzip'), floor: sum(floorFiles, 'gzip'), sentryInInitial, shell, pages, css };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measure();
  const ratio = r.app / r.floor;
  const verdicts = new Verdicts('bundle');
  for (const f of r.appFiles) console.log(`  app   ${f.file.padEnd(44)} ${String(f.raw).padStart(8)} B raw ${String(f.gzip).padStart(7)} B gzip`);
  console.log(`JS before the login form: ${r.app} B gzip (${r.appFiles.length} file(s))`);
  console.log(`React 19 floor:           ${r.floor} B gzip`);
  console.log(`ratio:                    ${ratio.toFixed(3)} (budget ${BUDGET_RATIO})`);
  console.log(`Sentry in initial JS:     ${r.sentryInInitial ? 'YES' : 'no'}`);
  // What is left for features that add to the login form, the session or the app's frame.
  const room = Math.floor(r.floor * BUDGET_RATIO) - r.app;
  console.log(`room to the budget:       ${room} B gzip`);
  console.log('');
  console.log(`The shell every route loads, beyond the first bundle: ${r.shell.gzip} B gzip in ${r.shell.files} file(s)`);
  console.log(`Styles: before the login form (static/login.css) ${r.css.login} B gzip; the rest (static/app.css) ${r.css.app} B gzip`);
  console.log('');
  console.log('Lazily loaded pages, gzip bytes beyond the first bundle and the shell (the page and what it brings along):');
  for (const p of r.pages) console.log(`  ${p.page.padEnd(50)} ${String(p.gzip).padStart(6)} B gzip in ${p.files} file(s)`);
  verdicts.figure('JS fetched by the time the login page is idle', `${r.app} B in ${r.appFiles.length} files`, 'none set', null);
  verdicts.figure('bare React 19 page', `${r.floor} B`, 'none set', null);
  verdicts.figure('JS fetched by the time the login page is idle / bare React page', `${ratio.toFixed(3)}×`, `≤ ${BUDGET_RATIO}×`, ratio <= BUDGET_RATIO);
  verdicts.figure('JS before the login form: room left to the budget', `${room} B`, 'none set', null);
  verdicts.figure('Sentry in the JS before the login form', r.sentryInInitial ? 'yes' : 'no', 'no', !r.sentryInInitial);
  verdicts.figure('the shell every route loads, beyond the first bundle', `${r.shell.gzip} B`, `< ${PAGE_CHUNK_MAX_GZIP} B`, r.shell.gzip < PAGE_CHUNK_MAX_GZIP);
  verdicts.figure('styles before the login form (static/login.css)', `${r.css.login} B`, `< ${LOGIN_CSS_MAX_GZIP} B`, r.css.login < LOGIN_CSS_MAX_GZIP);
  verdicts.figure('the rest of the styles (static/app.css)', `${r.css.app} B`, 'none set', null);
  for (const p of r.pages) {
    const name = p.page.replace(/^src\//, '').replace(/\.tsx?$/, '');
    verdicts.figure(`page chunk ${name}`, `${p.gzip} B`, `< ${PAGE_CHUNK_MAX_GZIP} B`, p.gzip < PAGE_CHUNK_MAX_GZIP);
  }
  // Run alone, over budget is an error as it always was; --check is accepted for the other scripts' sake.
  verdicts.finish();
  if (verdicts.misses.length > 0) process.exitCode = 1;
}
