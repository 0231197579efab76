// SPEC §2: the sidebar is built from the route table: each link's name, path and permission are its route's.
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/shell/routes';
import { NAV } from '../../src/shell/nav';

describe('sidebar from the route table', () => {
  it('SPEC §2 every sidebar link is a route, named by its title and guarded by its permission', () => {
    const links = NAV.flatMap((s) => s.links);
    expect(links).toHaveLength(10);
    for (const link of links) {
      const route = ROUTES.find((r) => r.path === link.to);
      expect(route, link.to).toBeDefined();
      expect([link.label, link.permission]).toEqual([route!.title, 'permission' in route! ? route!.permission : undefined]);
    }
    expect(NAV.map((s) => s.title)).toEqual([null, 'Communication', 'CRM', 'Admin']);
  });
});
