// Issue 34 item 9, D26 D32: `created_since` narrows the list (and its export, D27) to the customers added
// at or after an instant, one organization's only; a value that is no date or time is 400 naming it.
import { beforeAll, describe, expect, test } from 'vitest';
import type { CustomerListItem } from '../../contract/customers';
import { DAY_MS } from '../../contract/time';
import { CUSTOMERS } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { expectFieldError, ownerOfNewOrg, warmUp, type Actor } from './customers-common';

forEachBackend('API customers added since', (backend) => {
  let b: Backend;
  let owner: Actor;
  let other: Actor;
  let since: string;
  beforeAll(async () => {
    b = backend();
    await warmUp(b);
    [owner, other] = [await ownerOfNewOrg(b, 'Since Org'), await ownerOfNewOrg(b, 'Since Other')];
    const now = b.clock.now();
    since = new Date(now - DAY_MS).toISOString();
    const added = async (name: string, at: number) => {
      const c = await owner.create({ name });
      await b.server.db.query('update customers set created_at = $2 where id = $1', [c.id, new Date(at)]);
    };
    await added('Old Ann', now - 10 * DAY_MS);
    await added('New Bob', now - DAY_MS);
    await added('New Cid', now);
    await other.create({ name: 'Other Dee' }); // another organization's, added after `since`
  });
  const page = async (who: Actor, query: string) => {
    const r = await who.get(`${CUSTOMERS}?${query}`);
    expect(r.status, r.text).toBe(200);
    return r.body as { count: number; results: CustomerListItem[] };
  };

  describe('D32 created_since', () => {
    test('D32 lists only the customers added at or after it, newest first, with their count; the organization’s own only', async () => {
      const r = await page(owner, `created_since=${encodeURIComponent(since)}&sort=-created_at`);
      expect(r.results.map((c) => c.name)).toEqual(['New Cid', 'New Bob']);
      expect(r.count).toBe(2);
      expect((await page(owner, '')).count).toBe(3);
      expect((await page(other, `created_since=${encodeURIComponent(since)}`)).results.map((c) => c.name)).toEqual(['Other Dee']);
    });

    test('D32 a day means from its start (UTC); it combines with the other filters', async () => {
      const day = since.slice(0, 10);
      expect((await page(owner, `created_since=${day}`)).results.map((c) => c.name)).toEqual(['New Bob', 'New Cid']);
      expect((await page(owner, `created_since=${day}&q=cid`)).results.map((c) => c.name)).toEqual(['New Cid']);
      const later = new Date(Date.parse(since) + DAY_MS / 2).toISOString();
      expect((await page(owner, `created_since=${later}`)).results.map((c) => c.name)).toEqual(['New Cid']);
    });

    test('D27 the export of the list so narrowed holds the same customers', async () => {
      const r = await owner.get(`${CUSTOMERS}export.csv?created_since=${encodeURIComponent(since)}`);
      expect(r.status, r.text).toBe(200);
      expect(r.text).toContain('New Bob');
      expect(r.text).toContain('New Cid');
      expect(r.text).not.toContain('Old Ann');
    });

    test.each(['yesterday', '2024-02-31', '2024-6-1', '2024-06-01T12:00:00+02:00', '1' + '0'.repeat(40)])(
      'D19 created_since=%s is 400 JSON naming the field, on the list and the export',
      async (value) => {
        expectFieldError(await owner.get(`${CUSTOMERS}?created_since=${encodeURIComponent(value)}`), 'created_since');
        expectFieldError(await owner.get(`${CUSTOMERS}export.csv?created_since=${encodeURIComponent(value)}`), 'created_since');
      },
    );
  });
});
