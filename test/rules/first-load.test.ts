// D13: error reporting loads after first render, so it costs the login screen nothing. Checked on the
// real app entry (src/main.tsx), bundled as the build does: the JS a browser loads before first render
// (the entry and every chunk it imports statically) holds no Sentry code, and Sentry is still bundled
// as a lazily loaded chunk.
import path from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

describe('D13 error reporting and the first load', () => {
  test('D13 no @sentry code in the JS loaded before first render; it is reachable only by dynamic import', async () => {
    const result = await esbuild.build({
      entryPoints: { main: path.join(root, 'src/main.tsx') },
      bundle: true,
      splitting: true,
      format: 'esm',
      jsx: 'automatic',
      target: ['es2022'],
      outdir: path.join(root, 'out-test'),
      write: false,
      metafile: true,
      minify: true,
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    });
    const outputs = result.metafile.outputs;
    const entry = Object.keys(outputs).find((f) => outputs[f]?.entryPoint?.endsWith('src/main.tsx'));
    expect(entry).toBeDefined();
    const initial = new Set<string>();
    const visit = (file: string) => {
      if (initial.has(file)) return;
      initial.add(file);
      for (const imp of outputs[file]?.imports ?? []) if (imp.kind === 'import-statement') visit(imp.path);
    };
    visit(entry!);
    const initialInputs = [...initial].flatMap((f) => Object.keys(outputs[f]?.inputs ?? {}));
    expect(initialInputs.some((i) => i.includes('src/pages/login/LoginPage'))).toBe(true); // sanity: this is the first load
    expect(initialInputs.filter((i) => i.includes('@sentry'))).toEqual([]);
    const sentryChunks = Object.entries(outputs).filter(([, o]) => Object.keys(o.inputs).some((i) => i.includes('@sentry/browser')));
    expect(sentryChunks.length).toBeGreaterThan(0);
  });
});
