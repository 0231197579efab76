// SPEC §2: the sidebar is built from the route table: each link's name, path and permission are its route's.
import { describe, expect, it } from 'vitest';
import { ROUTES, type Route } from '../../src/shell/routes';
import { NAV } from '../../src/shell/nav';

describe('sidebar from the route table', () => {
  it('SPEC §2 every sidebar link is a route, named by its title and guarded by its permission', () => {
    const links = NAV.flatMap((s) => s.links);
    expect(links).toHaveLength(11);
    for (const link of links) {
      const route = ROUTES.find((r) => r.path === link.to);
      expect(route, link.to).toBeDefined();
      // D61: a link may need more than its page (Custom fields: everyone reads it, the link is for who manages them).
      const nav = (route as Route).nav;
      const own = nav?.permission;
      expect([link.label, link.permission]).toEqual([route!.title, own ?? ('permission' in route! ? route!.permission : undefined)]);
    }
    expect(links.find((l) => l.to === '/settings/fields')?.permission).toBe('fields:manage');
    expect(NAV.map((s) => s.title)).toEqual([null, 'Communication', 'CRM', 'Admin']);
  });
});
