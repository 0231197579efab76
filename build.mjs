// Builds the app (and, when present, the API server) with esbuild.
//   node build.mjs            production build into dist/
//   node build.mjs --watch    rebuild on change; the page reloads itself (dev only)
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(root, 'dist');
const watch = process.argv.includes('--watch');

/** esbuild options for the browser app; bench/ reuses them for the React floor. Chunks are split by import() alone. */
export function appOptions({ dev = false, entryPoints, outdir } = {}) {
  return {
    entryPoints: entryPoints ?? {
      main: path.join(root, 'src/main.tsx'),
      login: path.join(root, 'static/login.css'),
      app: path.join(root, 'static/app.css'),
    },
    outdir: outdir ?? path.join(dist, 'assets'),
    bundle: true,
    format: 'esm',
    splitting: true,
    minify: !dev,
    sourcemap: dev ? 'inline' : false,
    target: ['es2022'],
    jsx: 'automatic',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    assetNames: 'media/[name]-[hash]',
    metafile: true,
    legalComments: 'none',
    charset: 'utf8',
    define: { 'process.env.NODE_ENV': JSON.stringify(dev ? 'development' : 'production') },
    logLevel: 'warning',
  };
}

/** An output file and the chunks it imports statically, all levels (what loading it loads). */
function closure(metafile, file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const i of metafile.outputs[file].imports) if (i.kind === 'import-statement') closure(metafile, i.path, seen);
  return seen;
}

/** What every route's screen loads besides its page: the shell around it, and a part's load error (ui/page.tsx). */
const SHELL_PARTS = ['src/app/shell-screen.tsx', 'src/ui/load-error.tsx'];

/**
 * SPEC §4 preload hints (shell/routes.ts preloadRoute): for each route of the table, its page's file and
 * every file that one imports, less what the first bundle has loaded; '*' the same for SHELL_PARTS. The
 * browser would otherwise find a file's imports only once it had the file, a round trip per level.
 */
export function routeFiles(metafile, url) {
  const byEntry = new Map();
  for (const [file, o] of Object.entries(metafile.outputs)) if (o.entryPoint) byEntry.set(o.entryPoint, file);
  const main = byEntry.get('src/main.tsx');
  const first = closure(metafile, main);
  const fileOf = (source) => {
    const file = ['.tsx', '.ts'].map((e) => byEntry.get(source + e)).find(Boolean) ?? byEntry.get(source);
    if (!file) throw new Error(`build: no output file for ${source}`);
    return file;
  };
  // The files of these sources beyond the first bundle, the largest first (see writeHtml).
  const files = (...sources) =>
    [...new Set(sources.flatMap((s) => [...closure(metafile, fileOf(s))]))]
      .filter((f) => !first.has(f))
      .sort((a, b) => metafile.outputs[b].bytes - metafile.outputs[a].bytes)
      .map(url);
  const table = readFileSync(path.join(root, 'src/shell/routes.ts'), 'utf8');
  const hints = { '*': files(...SHELL_PARTS) };
  for (const [, route, module, parts = ''] of table.matchAll(/\bpath: '(\/[^']*)'[\s\S]*?\bimport\('([^']+)'\),?\s*(?:parts: \[([^\]]*)\])?/g)) {
    const pieces = [...parts.matchAll(/'([^']+)'/g)].map((m) => m[1]);
    hints[route] = files(...[module, ...pieces].map((m) => path.posix.join('src/shell', m)));
  }
  return hints;
}

const inline = (file) => esbuild.transformSync(readFileSync(path.join(root, file), 'utf8'), { minify: true }).code.trim();

/** Writes dist/index.html from static/index.html with the theme script inlined and the hashed assets linked. */
function writeHtml(metafile, dev) {
  const outputs = Object.entries(metafile.outputs);
  const url = (file) => '/' + path.relative(dist, path.join(root, file)).split(path.sep).join('/');
  const js = outputs.find(([, o]) => o.entryPoint?.endsWith('src/main.tsx'))?.[0];
  const css = (name) => outputs.find(([f, o]) => f.endsWith('.css') && o.entryPoint?.endsWith(`static/${name}`))?.[0];
  const loginCss = css('login.css');
  const restCss = css('app.css');
  if (!js || !loginCss || !restCss) throw new Error('build: entry outputs not found in metafile');
  const theme = inline('src/boot/theme.js');
  // The first bundle's files are fetched at once, not a level at a time as the browser finds them.
  const preload = [...closure(metafile, js)].filter((f) => f !== js);
  // The first paint waits for the login form's styles only; the link names the rest's file (src/lib/styles.ts).
  let tags = `<link rel="stylesheet" href="${url(loginCss)}" data-rest="${url(restCss)}">\n`;
  // The largest file first: on HTTP/1.1 a browser fetches six at a time, in the page's order.
  tags += `<script type="module" src="${url(js)}"></script>\n`;
  for (const file of preload.sort((a, b) => metafile.outputs[b].bytes - metafile.outputs[a].bytes)) tags += `<link rel="modulepreload" href="${url(file)}">\n`;
  tags += `<script type="application/json" id="route-files">${JSON.stringify(routeFiles(metafile, url))}</script>`;
  if (dev) tags += `\n<script type="module">new EventSource('/esbuild').addEventListener('change', () => location.reload())</script>`;
  const html = readFileSync(path.join(root, 'static/index.html'), 'utf8')
    .replace('/*THEME*/', () => theme)
    .replace('<!--ASSETS-->', () => tags);
  writeFileSync(path.join(dist, 'index.html'), html);
  writeFileSync(path.join(dist, 'meta.json'), JSON.stringify(metafile));
}

function copyStatic() {
  mkdirSync(dist, { recursive: true });
  cpSync(path.join(root, 'static'), dist, {
    recursive: true,
    filter: (src) => !/(index\.html|\.css)$/.test(src),
  });
}

/** The API server: one ESM file for Node, packages left to node_modules. */
function serverOptions() {
  return {
    entryPoints: [path.join(root, 'server/main.ts')],
    outfile: path.join(dist, 'server/main.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: ['node20'],
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  };
}

/** D2: the PGlite worker is loaded by path at run time (db.ts), not bundled: it sits beside main.mjs. */
function copyServerWorker() {
  mkdirSync(path.join(dist, 'server'), { recursive: true });
  for (const file of ['pglite-worker.mjs', 'pglite-statements.mjs']) cpSync(path.join(root, 'server', file), path.join(dist, 'server', file));
}

export async function build({ dev = false } = {}) {
  rmSync(dist, { recursive: true, force: true });
  copyStatic();
  const result = await esbuild.build(appOptions({ dev }));
  writeHtml(result.metafile, dev);
  await esbuild.build(serverOptions());
  copyServerWorker();
  return result;
}

async function watchMode() {
  rmSync(dist, { recursive: true, force: true });
  copyStatic();
  const htmlPlugin = {
    name: 'html',
    setup(b) {
      b.onEnd((r) => {
        if (r.metafile) writeHtml(r.metafile, true);
      });
    },
  };
  const app = appOptions({ dev: true });
  const ctx = await esbuild.context({ ...app, plugins: [htmlPlugin] });
  await ctx.watch();
  // Our API server serves dist/ and, with DEV_RELOAD=1, the /esbuild reload stream the dev page
  // listens to; it is restarted after each server rebuild, so esbuild's own server is not needed.
  const { spawn } = await import('node:child_process');
  let child = null;
  let queue = Promise.resolve();
  const stop = () =>
    new Promise((resolve) => {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', resolve);
      c.kill('SIGTERM'); // it closes its database (and the data directory's lock) before exiting
    });
  const restart = () =>
    (queue = queue.then(stop).then(() => {
      child = spawn(process.execPath, ['--enable-source-maps', path.join(dist, 'server/main.mjs')], {
        stdio: 'inherit',
        env: { ...process.env, DEV_RELOAD: '1' },
      });
    }));
  const restartPlugin = {
    name: 'restart-server',
    setup(b) {
      b.onEnd((r) => {
        if (r.errors.length === 0 && !process.env.NO_SERVE) restart();
      });
    },
  };
  copyServerWorker();
  const sctx = await esbuild.context({ ...serverOptions(), plugins: [restartPlugin] });
  await sctx.watch();
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => stop().then(() => process.exit(0)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (watch) await watchMode();
  else {
    const t = Date.now();
    const r = await build();
    const files = Object.keys(r.metafile.outputs).length;
    console.log(`built dist/ (${files} files) in ${Date.now() - t} ms`);
  }
}
