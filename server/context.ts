// What every request handler gets: the database, the configuration and the server's clock.
import type { ScryptCost } from './auth/passwords';
import type { Config } from './config';
import type { Db } from './db';
import type { Logger } from './log';

export interface Ctx {
  db: Db;
  config: Config;
  log: Logger;
  /** Milliseconds since the epoch; injectable so tests can move time instead of waiting. */
  now: () => number;
  /** D16: HS256 key, from JWT_SECRET or generated once and kept in the database. */
  jwtSecret: string;
  /** D17: OWASP's by default; tests may pass a cheaper cost. */
  scryptCost: ScryptCost;
}
