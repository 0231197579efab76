// D30: what the activity log is given is written without any secret-looking key (password, token, hash,
// secret), at any depth, whatever a caller put in an entry's changes.
import { expect, test } from 'vitest';
import { writeAudit } from '../../server/audit';
import type { Queryable } from '../../server/db';

test('D30 an audit entry is written without a password, token, hash or secret key at any depth; the rest kept', async () => {
  const params: unknown[][] = [];
  const tx = { query: async (_text: string, p: unknown[]) => (params.push(p), []) } as unknown as Queryable;
  const changes = {
    name: { from: 'Ann', to: 'Anne' },
    password: 'hunter2',
    nested: { resetToken: 'abc', list: [{ password_hash: 'x', city: 'Bend' }], Secret: 's' },
    at: new Date('2026-12-07T10:00:00Z'),
  };
  await writeAudit(tx, 1, { id: 2, label: 'Owner' }, 'customer.updated', { target: { type: 'customer', id: 3, label: 'Ann' }, changes }, new Date());
  const written = String(params[0]!.at(-1));
  expect(JSON.parse(written)).toEqual({ name: { from: 'Ann', to: 'Anne' }, nested: { list: [{ city: 'Bend' }] }, at: '2026-12-07T10:00:00.000Z' });
  expect(written).not.toMatch(/hunter2|abc|password|token|hash|secret/i);
});
