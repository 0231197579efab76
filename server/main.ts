// `node dist/server/main.mjs` (npm start): configuration from the environment, see docs/operations.md.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from './config';
import { DEMO_PASSWORD } from './seed';
import { describeError } from './log';
import { reportEventLoopDelay } from './event-loop-report';
import { startServer } from './server';

// The bundle lives in dist/server/; the app it serves is dist/.
const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

try {
  const server = await startServer({ env: process.env, distDir });
  const where = server.config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${server.config.dataDir}`;
  console.log(`CRM listening on ${server.url} (API at ${server.config.apiBase}, database: ${where})`);
  if (server.demoAccounts.length > 0) {
    console.log(`${server.seeded ? 'Seeded demo data. ' : ''}Demo accounts (password "${DEMO_PASSWORD}"; SEED=none for none):`);
    for (const line of server.demoAccounts) console.log(line);
  }
  reportEventLoopDelay(process.env); // D34: only the fair-share bench turns it on
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(describeError(err));
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
} catch (err) {
  console.error(err instanceof ConfigError ? `Configuration error: ${err.message}` : `Could not start: ${describeError(err)}`);
  process.exit(1);
}
