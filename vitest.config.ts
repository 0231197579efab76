import { defineConfig } from 'vitest/config';

// Two projects: the browser app runs in happy-dom, the API server in plain Node.
export default defineConfig({
  test: {
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache, keyed by
    // each file's content, id and config; `vitest --clearCache` empties it). A run after an edit
    // transforms only what changed: the app suite's main process spent 3–4 s of its 13–16 s transforming
    // (issue 21). On by default from vitest 5; no plugin here reads anything but a file's content.
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: {
          name: 'app',
          environment: 'happy-dom',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/server/**', 'test/resilience/**', 'test/e2e/**', 'node_modules/**'],
          setupFiles: ['test/setup.ts'],
          // One happy-dom window per worker, not per file (a new worker and window per file was most of
          // the run); test/setup.ts gives each file fresh app modules and a window as new.
          isolate: false,
          // Two workers on two cores: the suite is CPU-bound, more workers only add their own start-up;
          // vitest's default (cores − 1) runs the files one after another.
          maxWorkers: 2,
          // A young generation of 32 MB a semi-space (Node 20's V8 stops at 16): rendering and role queries
          // make short-lived garbage fast, and with the suite CPU-bound, fewer scavenges are time saved. In 5
          // alternating pairs of runs on Node 20: 4–11 % less CPU and 0.4–1.8 s less wall in every pair (Node
          // 24: no difference); 64 was no faster, 128 neither and 150 MB larger (development.md, 'Fast suites').
          execArgv: ['--max-semi-space-size=32'],
          // A bound for a stuck test on a busy shared machine, not a speed requirement (see test/setup.ts).
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          // One file per feature, each on PGlite and on a database of its own in one PostgreSQL cluster
          // that test/server/global-setup.ts starts for the whole run.
          name: 'server',
          environment: 'node',
          // .tsx: the app signing in against a real server, in happy-dom (live-app.test.tsx).
          include: ['test/server/**/*.test.{ts,tsx}'],
          globalSetup: ['test/server/global-setup.ts'],
          // Two workers even on two cores: a file mostly waits on its servers and PostgreSQL, and the slow
          // CPU-bound file (defaults: OWASP scrypt) then runs beside the rest. Its own maxWorkers needs its
          // own group, run after the app's.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // expect.poll waits for a state (an order), bounded like a test, not by vitest's 1 s default.
          expect: { poll: { timeout: 20_000 } },
        },
      },
      {
        extends: true,
        test: {
          // Resilience: hostile input over every route, tenant isolation, crashes and sustained load, each
          // on PGlite and PostgreSQL (the server suite's one cluster). Heavy by design: one file at a time,
          // after the server suite.
          name: 'resilience',
          environment: 'node',
          include: ['test/resilience/**/*.test.ts'],
          globalSetup: ['test/server/global-setup.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
          expect: { poll: { timeout: 60_000 } },
        },
      },
      {
        extends: true,
        test: {
          // Issue: the product in Chromium, against the server `npm start` runs (test/e2e/global-setup.ts).
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.e2e.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          fileParallelism: false,
          // expect.poll waits for a state, bounded like a test, not by vitest's 1 s default (a busy machine
          // passed that second between a click and its answer's drawing).
          expect: { poll: { timeout: 20_000 } },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
