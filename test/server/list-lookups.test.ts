// D34: a statement that looks up a list of values (`= any(string_to_array($n, chr(1)))`: an import's
// duplicates by email or name, a unique custom field's holders) is planned for its list every time. The
// plan a prepared statement settles on after five runs compared every row of the organization with every
// value of the list (50,000 customers × 2,000 emails went past PostgreSQL's 5 s statement timeout on the
// fair-share bench's fourth import); planned for its list, the list is a constant, found by index and hashed.
import { expect, test } from 'vitest';
import { valueHolders } from '../../server/custom-fields';
import type { QueryOptions, Queryable } from '../../server/db';
import { findByEmails, findByNames } from '../../server/features/customers/import-repo';
import { wholeOrganization } from '../../server/customer-scope';

const recording = () => {
  const seen: { text: string; opts: QueryOptions | undefined }[] = [];
  const db = { query: async (text: string, _params?: unknown, opts?: QueryOptions) => (seen.push({ text, opts }), []) } as unknown as Queryable;
  return { db, seen };
};

test('D34 an import’s look-ups of duplicates by email and by name are planned for their list (replan), every batch', async () => {
  const { db, seen } = recording();
  await findByEmails(
    db,
    wholeOrganization(1),
    Array.from({ length: 4001 }, (_, i) => `p${i}@example.test`),
  );
  await findByNames(db, wholeOrganization(1), ['Ann', 'Bo']);
  const lookups = seen.filter((s) => s.text.includes('string_to_array'));
  expect(lookups).toHaveLength(4); // 3 batches of at most 2,000 emails, 1 of names
  for (const s of lookups) expect(s.opts).toEqual({ replan: true });
});

test('D34 the holders of a unique custom field’s values are looked up planned for their list (replan)', async () => {
  const { db, seen } = recording();
  await valueHolders(db, 1, { id: 7, key: 'serial', type: 'text' }, ['a', 'b']);
  const lookup = seen.find((s) => s.text.includes('string_to_array'));
  expect(lookup?.opts).toEqual({ replan: true });
});
