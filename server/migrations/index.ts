// Versioned schema, applied at start in order, each in its own transaction; one file per version. Never
// edit a released migration: add the next version. An advisory lock lets several instances start on one PostgreSQL.
import type { Db, Queryable } from '../db';
import { num } from '../db';
import { migration001 } from './001-users-sessions-customers';
import { migration002 } from './002-roles-permissions';
import { migration003 } from './003-customers-list-order';
import { migration004 } from './004-org-permissions-customers-audit';
import { migration005 } from './005-customer-notes';
import { migration006 } from './006-invitations';
import { migration007 } from './007-customer-counts-in-key-order';
import { migration008 } from './008-search-as-people-write';
import { migration009 } from './009-locations-contacts-type-flag';
import { migration010 } from './010-search-locations-contacts';
import { migration011 } from './011-customer-merges';
import { migration012 } from './012-account-sessions-resets';
import { migration013 } from './013-two-step-sign-in';
import { migration014 } from './014-write-notifications';
import { migration015 } from './015-search-carries-parts';
import { migration016 } from './016-notifications-name-their-instance';
import { migration017 } from './017-no-write-notifications';
import { migration018 } from './018-fold-quotes-and-dashes';
import { migration019 } from './019-merge-keeps-contact-details';
import { migration020 } from './020-custom-fields';
import { migration021 } from './021-saved-views';
import { migration022 } from './022-bulk-actions';
import { migration023 } from './023-custom-field-deletes';
import { migration024 } from './024-custom-field-list';
import { migration025 } from './025-import-mappings';
import { migration026 } from './026-assigned-customers';
import { migration027 } from './027-custom-values-look-ups';
import type { Migration } from './migration';

export type { Migration } from './migration';

/** Arbitrary constant shared by every instance: the key of the start-up advisory lock. */
export const SCHEMA_LOCK_KEY = 72_410_001;

export const MIGRATIONS: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
  migration017,
  migration018,
  migration019,
  migration020,
  migration021,
  migration022,
  migration023,
  migration024,
  migration025,
  migration026,
  migration027,
];

export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
}

async function currentVersion(q: Queryable): Promise<number> {
  const rows = await q.query<{ v: unknown }>('select coalesce(max(version), 0) as v from schema_migrations');
  return num(rows[0]?.v ?? 0);
}

/** Applies pending migrations; returns the versions applied. Safe to run from several instances at once. */
export async function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  // Under the lock too: two sessions running CREATE TABLE IF NOT EXISTS at once can still collide.
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    await tx.query(`create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      applied_at timestamptz not null default now())`);
  });
  const latest = migrations.at(-1)?.version ?? 0;
  const applied: number[] = [];
  for (const m of migrations) {
    const done = await db.transaction(
      async (tx) => {
        await tx.query('select pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
        const version = await currentVersion(tx);
        if (version > latest) {
          throw new SchemaTooNewError(`the database schema is version ${version}, newer than this server knows (${latest}); upgrade the server`);
        }
        if (version >= m.version) return false;
        for (const statement of m.statements) await tx.query(statement);
        await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [m.version, m.name]);
        return true;
      },
      { statementTimeoutMs: 0 },
    ); // D34: an index over a large table may take longer than an ordinary call
    if (done) applied.push(m.version);
  }
  return applied;
}
