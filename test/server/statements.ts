// What a request costs the database, counted: the SQL statements a server sends while `fn` runs.
import type { SqlParam } from '../../server/db';
import type { TestServer } from './helpers';

/** Runs fn and lists the text of each SQL statement the server sends meanwhile (plain queries and transactions' ones). */
export async function statementsDuring<T>(server: TestServer, fn: () => Promise<T>): Promise<{ result: T; texts: string[] }> {
  const db = server.db;
  const texts: string[] = [];
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  db.query = (text: string, params?: readonly SqlParam[]) => (texts.push(text), query(text, params)) as never;
  db.transaction = ((fn2: Parameters<typeof db.transaction>[0]) =>
    transaction((tx) => fn2({ query: (text, params) => (texts.push(text), tx.query(text, params)) as never }))) as typeof db.transaction;
  try {
    return { result: await fn(), texts };
  } finally {
    db.query = query;
    db.transaction = transaction;
  }
}
