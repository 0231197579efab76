// Builds the app (and, when present, the API server) with esbuild.
//   node build.mjs            production build into dist/
//   node build.mjs --watch    rebuild on change; the page reloads itself (dev only)
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(root, 'dist');
const watch = process.argv.includes('--watch');

/** What main.tsx runs: the whole JS before the login form (see firstBundleShared). */
const START = path.join(root, 'src/app/start.tsx');
/** The rest of the app's start, which start.tsx loads as the login form is drawn (see firstBundleShared). */
const BOOT = path.join(root, 'src/app/boot.tsx');

/** The modules src/ loads with import(): every lazily loaded entry, found by reading the source. */
function lazyEntries() {
  const src = path.join(root, 'src');
  const found = new Set();
  for (const rel of readdirSync(src, { recursive: true })) {
    if (!/\.tsx?$/.test(rel)) continue;
    const file = path.join(src, rel);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)) {
      const base = path.resolve(path.dirname(file), spec);
      const hit = ['.ts', '.tsx', '/index.ts', '/index.tsx'].map((e) => base + e).find((f) => existsSync(f));
      if (hit) found.add(hit);
    }
  }
  return found;
}

/**
 * The app's chunk layout is decided here (and by which modules app/ loads with import()), nowhere in
 * the source. esbuild puts a module that several entries use (every import() target is an entry) into
 * a file chosen by WHICH entries use it, so the first bundle would be cut into several files, each
 * loaded before the login form (bench/bundle.mjs budget), and an entry without React (session/lock.ts,
 * telemetry/sentry.ts) would split esbuild's CommonJS helpers into one more. So every import() target
 * also imports app/start.tsx (everything main.tsx runs), appended at build time: each reaches the whole
 * first bundle, and esbuild keeps it in ONE file shared by all (loaded already when they are). The same
 * for the rest of the app's start (app/boot.tsx, which every screen but the first login form needs):
 * every other import() target imports it too, so it is ONE more file, loaded before any of them. Nothing
 * to name when a screen is added; test/rules/module-graph.test.ts builds without it (it is no import).
 */
const firstBundleShared = {
  name: 'first-bundle-shared',
  setup(b) {
    let entries = new Set();
    b.onStart(() => void (entries = lazyEntries())); // again on each rebuild in watch mode
    b.onLoad({ filter: /\.tsx?$/ }, (args) => {
      if (!entries.has(args.path)) return undefined;
      // Appended, so the lines of the file stay where they are in source maps.
      const shared = args.path === BOOT ? [START] : [START, BOOT];
      return {
        contents: `${readFileSync(args.path, 'utf8')}\n${shared.map((f) => `import ${JSON.stringify(f)};`).join('')}\n`,
        loader: args.path.endsWith('x') ? 'tsx' : 'ts',
        resolveDir: path.dirname(args.path),
      };
    });
  },
};

/**
 * esbuild options for the browser app; bench/ reuses them for the React floor. `layout: false` leaves
 * out firstBundleShared: the imports as written (test/rules/module-graph.test.ts).
 */
export function appOptions({ dev = false, entryPoints, outdir, layout = true } = {}) {
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
    plugins: layout ? [firstBundleShared] : [],
  };
}

/** The page's element holding lazyImports (app/preload.ts reads it). */
const LAZY_IMPORTS_ID = 'lazy-imports';

/**
 * For each file the page's own JS loads with import(): the files it imports in turn (all levels), less
 * those the page has loaded. The browser finds them only once it has the file, a round trip per level;
 * app/preload.ts asks for them beside it. Keyed by file name (as the import() in the code names it).
 * The page's own JS: the first bundle (`loaded`), then the rest of the app's start (`start`, app/boot.tsx
 * and what it imports), whose import() targets need neither.
 */
function lazyImports(metafile, loaded, start, url) {
  return { ...lazyImportsFrom(metafile, loaded, url), ...lazyImportsFrom(metafile, [...loaded, ...start], url, start) };
}

function lazyImportsFrom(metafile, loaded, url, from = loaded) {
  const map = {};
  const closure = (file, seen) => {
    for (const i of metafile.outputs[file].imports) {
      if (i.kind !== 'import-statement' || seen.has(i.path) || loaded.includes(i.path)) continue;
      seen.add(i.path);
      closure(i.path, seen);
    }
    return seen;
  };
  for (const file of from) {
    for (const i of metafile.outputs[file].imports) {
      const files = i.kind === 'dynamic-import' ? [...closure(i.path, new Set())] : [];
      if (files.length > 0) map[path.basename(i.path)] = files.map(url);
    }
  }
  return map;
}

/**
 * What src/boot/preload.js asks for beside the first bundle: the rest of the app's start (app/boot.tsx),
 * wherever the first bundle cannot draw the login form alone; and SPEC §4 on a reload with a stored
 * session, as app/preload.ts's preloadScreen would (the same files, in its order): each shell route's
 * path segments with its page's file (from app/routes.ts: an import() of its own, or the lazy group's for
 * screen()), and the files of the session's code, the reload's data, the shell (before the page), the
 * load error and the toast region (after).
 */
export function earlyPreload(metafile, url) {
  const byEntry = new Map();
  for (const [file, o] of Object.entries(metafile.outputs)) if (o.entryPoint) byEntry.set(o.entryPoint.replace(/\.[jt]sx?$/, ''), url(file));
  const file = (source) => {
    const f = byEntry.get(source);
    if (!f) throw new Error(`build: no output file for ${source}`);
    return f;
  };
  const routesSource = readFileSync(path.join(root, 'src/app/routes.ts'), 'utf8');
  const routes = [...routesSource.matchAll(/^ {2}'(\/[^']*)': (?:\(\) => import\('([^']+)'\)|screen\()/gm)].map(([, route, module]) => [
    route.split('/').filter(Boolean),
    file(module ? path.join('src/app', module) : 'src/app/lazy'),
  ]);
  // After the page: the load error, and the toast region start() asks for (a reload's code all comes from the page).
  return [file('src/app/boot'), routes, ['src/session/deferred', 'src/app/prefetch', 'src/app/lazy'].map(file), ['src/ui/load-error', 'src/ui/toaster'].map(file)];
}

const inline = (file) => esbuild.transformSync(readFileSync(path.join(root, file), 'utf8'), { minify: true }).code.trim();

/** src/boot/preload.js as index.html runs it (minified, its arguments written in). */
export const earlyPreloadScript = (metafile, url) => inline('src/boot/preload.js').replace('...PRELOAD', () => JSON.stringify(earlyPreload(metafile, url)).slice(1, -1));

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
  // The chunks the entry imports statically (the one shared with the lazy screens, see
  // firstBundleShared) are fetched with it rather than after it: one round trip before the login form.
  const preload = [];
  const visit = (file) => {
    for (const i of metafile.outputs[file].imports) {
      if (i.kind !== 'import-statement' || preload.includes(i.path)) continue;
      preload.push(i.path);
      visit(i.path);
    }
  };
  visit(js);
  // The first paint waits for the login form's styles only; the link names the rest's file, which loads
  // beside the rest of the app's start (src/lib/styles.ts, src/boot/preload.js).
  let tags = `<link rel="stylesheet" href="${url(loginCss)}" data-rest="${url(restCss)}">\n`;
  for (const file of preload) tags += `<link rel="modulepreload" href="${url(file)}">\n`;
  tags += `<script type="module" src="${url(js)}"></script>`;
  const boot = outputs.find(([, o]) => o.entryPoint?.endsWith('src/app/boot.tsx'))?.[0];
  if (!boot) throw new Error('build: app/boot.tsx output not found in metafile');
  const start = [];
  const visitStart = (file) => {
    if (start.includes(file) || file === js || preload.includes(file)) return;
    start.push(file);
    for (const i of metafile.outputs[file].imports) if (i.kind === 'import-statement') visitStart(i.path);
  };
  visitStart(boot);
  tags += `\n<script type="application/json" id="${LAZY_IMPORTS_ID}">${JSON.stringify(lazyImports(metafile, [js, ...preload], start, url))}</script>`;
  tags += `\n<script>${earlyPreloadScript(metafile, url)}</script>`;
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
  const ctx = await esbuild.context({ ...app, plugins: [...app.plugins, htmlPlugin] });
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
