// D61 migration 21 on a database with organizations: views:manage joins every existing organization's
// owner and admin rows; D57 view names are unique among one person's views and among the shared ones.
import { afterAll, expect, test } from 'vitest';
import { openDb, type Db } from '../../server/db';
import { migrate, MIGRATIONS } from '../../server/migrations';
import { describePostgres } from './backends';

describePostgres('migration 21 on a database with organizations (PostgreSQL)', (databaseUrl) => {
  let db: Db | null = null;
  afterAll(async () => {
    await db?.close();
  });

  test("D61 views:manage joins each existing organization's owner and admin rows, no other role's; D57 names unique per scope", async () => {
    db = await openDb({ databaseUrl: databaseUrl(), dataDir: '' });
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 21),
    );
    const [org] = await db.query<{ id: number }>("insert into organizations (name) values ('Before Views') returning id");
    const [user] = await db.query<{ id: number }>("insert into users (email, password_hash, first_name) values ('v@example.test', 'x', 'Vi') returning id");
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= 21),
      ),
    ).toEqual([21]);
    const rows = await db.query<{ role: string }>("select role from role_permissions where org_id = $1 and permission = 'views:manage' order by role", [org!.id]);
    expect(rows.map((r) => r.role)).toEqual(['admin', 'owner']);
    const insert = 'insert into saved_views (org_id, owner_id, name) values ($1, $2, $3)';
    await db.query(insert, [org!.id, user!.id, 'Leads']);
    await db.query(insert, [org!.id, null, 'Leads']); // a shared view may share a personal one's name
    await expect(db.query(insert, [org!.id, user!.id, 'LEADS'])).rejects.toMatchObject({ code: expect.stringMatching(/^23/) });
    await expect(db.query(insert, [org!.id, null, 'leads'])).rejects.toMatchObject({ code: expect.stringMatching(/^23/) });
  });
});
