// Bundle budget: gzip bytes of the JS a browser loads before the login form, against a bare
// React 19 page built with the same esbuild settings in the same run. Budget: at most 1.15×.
//   node bench/bundle.mjs
import * as esbuild from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { appOptions } from '../build.mjs';

export const BUDGET_RATIO = 1.15;

/** The entry's output plus every chunk it imports statically (what loads before first render). */
function initialJs(metafile, entrySuffix, outdir) {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((f) => outputs[f].entryPoint?.endsWith(entrySuffix));
  const seen = new Set();
  const visit = (f) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const imp of outputs[f].imports) if (imp.kind === 'import-statement') visit(imp.path);
  };
  visit(entry);
  return [...seen].map((f) => {
    const code = readFileSync(path.resolve(f));
    return { file: path.relative(outdir, path.resolve(f)), raw: code.length, gzip: gzipSync(code, { level: 9 }).length };
  });
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
    return { appFiles, floorFiles, app: sum(appFiles, 'gzip'), floor: sum(floorFiles, 'gzip'), sentryInInitial };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measure();
  const ratio = r.app / r.floor;
  for (const f of r.appFiles) console.log(`  app   ${f.file.padEnd(44)} ${String(f.raw).padStart(8)} B raw ${String(f.gzip).padStart(7)} B gzip`);
  console.log(`JS before the login form: ${r.app} B gzip (${r.appFiles.length} file(s))`);
  console.log(`React 19 floor:           ${r.floor} B gzip`);
  console.log(`ratio:                    ${ratio.toFixed(3)} (budget ${BUDGET_RATIO})`);
  console.log(`Sentry in initial JS:     ${r.sentryInInitial ? 'YES' : 'no'}`);
  if (ratio > BUDGET_RATIO || r.sentryInInitial) {
    console.log('OVER BUDGET');
    process.exitCode = 1;
  }
}
