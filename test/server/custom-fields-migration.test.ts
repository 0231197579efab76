// D61 migration 20 on a database with organizations: fields:manage joins every existing organization's
// owner and admin rows; D56 the definitions table holds its own rules (keys' form, unique keys and labels
// per organization and kind, labels regardless of case) and existing records get empty values.
import { afterAll, expect, test } from 'vitest';
import { openDb, type Db } from '../../server/db';
import { migrate, MIGRATIONS } from '../../server/migrations';
import { describePostgres } from './backends';

describePostgres('migration 20 on a database with organizations (PostgreSQL)', (databaseUrl) => {
  let db: Db | null = null;
  afterAll(async () => {
    await db?.close();
  });
  /** A statement the database refuses by a constraint of its own (SQLSTATE class 23). */
  const refused = (sql: string, params: (string | number)[]) => expect(db!.query(sql, params)).rejects.toMatchObject({ code: expect.stringMatching(/^23/) });

  test("D61 fields:manage joins each existing organization's owner and admin rows, no other role's; D56 records get {} and the table keeps its rules", async () => {
    db = await openDb({ databaseUrl: databaseUrl(), dataDir: '' });
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 20),
    );
    const [org] = await db.query<{ id: number }>("insert into organizations (name) values ('Before Twenty') returning id");
    await db.query("insert into customers (org_id, name) values ($1, 'Ann Lee')", [org!.id]);
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= 20),
      ),
    ).toEqual([20]);
    const rows = await db.query<{ role: string }>("select role from role_permissions where org_id = $1 and permission = 'fields:manage' order by role", [org!.id]);
    expect(rows.map((r) => r.role)).toEqual(['admin', 'owner']);
    expect(await db.query('select custom from customers where org_id = $1', [org!.id])).toEqual([{ custom: {} }]);

    const insert = "insert into custom_fields (org_id, record_kind, key, label, type, position) values ($1, $2, $3, $4, 'text', 1)";
    await db.query(insert, [org!.id, 'customer', 'gate_code', 'Gate code']);
    await refused(insert, [org!.id, 'customer', 'gate_code', 'Other label']);
    await refused(insert, [org!.id, 'customer', 'other_key', 'GATE CODE']);
    await refused(insert, [org!.id, 'customer', 'Gate-Code', 'Gate code 2']);
    await refused(insert, [org!.id, 'thing', 'thing_code', 'Thing']);
    await db.query(insert, [org!.id, 'location', 'gate_code', 'Gate code']);
    await refused("update customers set custom = '[]' where org_id = $1", [org!.id]);
  });
});
