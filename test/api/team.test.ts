// api/team.ts keeps its own copies of the dashboard's key and the query string (so a team page does not
// bring every customers call along, past the 10 KB page budget): they stay the customers calls' own.
import { describe, expect, test } from 'vitest';
import { customerKeys, queryString as customersQueryString } from '../../src/api/customers';
import { dashboardKey, queryString, teamApi } from '../../src/api/team';
import { hashKey } from '../../src/query/cache';

describe('api/team', () => {
  test("D30 every team change makes the dashboard's latest activity stale, by the customers calls' own key", () => {
    expect(dashboardKey(7)).toEqual(customerKeys.dashboard(7));
    const api = teamApi({ client: {} as Parameters<typeof teamApi>[0]['client'], orgId: 7 });
    for (const write of [api.changeRole, api.removeMember, api.invite, api.revoke, api.renew]) {
      expect(write.invalidates.map(hashKey)).toContain(hashKey(customerKeys.dashboard(7)));
    }
  });

  test('the activity log asks with the query string the customers calls write', () => {
    for (const params of [{}, { page: 2, page_size: 25 }, { q: 'a b&c', status: undefined, deleted: false, empty: '' }, { deleted: true }]) {
      expect(queryString(params)).toBe(customersQueryString(params));
    }
  });
});
