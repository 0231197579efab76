// D13: Sentry is a chunk of its own, loaded by dynamic import(); the entry that main.tsx imports holds none of it.
import path from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

describe('telemetry bundle (D13)', () => {
  it('D13 @sentry/browser is absent from the entry and loaded lazily as its own chunk', async () => {
    const result = await esbuild.build({
      entryPoints: [path.join(root, 'src/telemetry/index.ts')],
      bundle: true,
      splitting: true,
      format: 'esm',
      outdir: '/out',
      write: false,
      metafile: true,
      minify: true,
      logLevel: 'silent',
    });
    const outputs = Object.entries(result.metafile.outputs);
    const entry = outputs.find(([, o]) => o.entryPoint?.endsWith('src/telemetry/index.ts'));
    expect(entry).toBeDefined();
    const [, entryMeta] = entry!;
    expect(Object.keys(entryMeta.inputs).some((i) => i.includes('@sentry'))).toBe(false);
    expect(entryMeta.imports.filter((i) => i.kind === 'import-statement')).toEqual([]);
    expect(entryMeta.imports.some((i) => i.kind === 'dynamic-import')).toBe(true);
    expect(entryMeta.bytes).toBeLessThan(2_000);
    const lazy = outputs.filter(([, o]) => Object.keys(o.inputs).some((i) => i.includes('@sentry/browser')));
    expect(lazy.length).toBeGreaterThan(0);
  });
});
