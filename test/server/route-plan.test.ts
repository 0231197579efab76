// STYLE "Routes are data": the router refuses at start-up a definition it could not honour, rather than
// dropping part of it; and every route of the API passes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { API_ROUTES } from '../../server/app';
import type { Ctx } from '../../server/context';
import { defineRoute, RAW, type RouteDef } from '../../server/route';
import { createRouter } from '../../server/router';
import { intText, text } from '../../server/schema';

const ctx = {} as Ctx; // the table is checked before anything of the context is used
const handler = async () => ({});
const start = (route: RouteDef) => () => createRouter(ctx, [route]);

describe('D30 the router refuses a definition it cannot honour', () => {
  test('D30 every route of the API is honoured as written', () => {
    expect(() => createRouter(ctx, API_ROUTES)).not.toThrow();
  });

  test('D30 audit on a GET is refused, naming the route', () => {
    const route = defineRoute({ method: 'GET', path: '/v1/things/', access: 'public', audit: 'customer.updated', handler });
    expect(start(route)).toThrow(/route GET \/v1\/things\/ cannot be honoured: 'audit' needs a transaction, and a GET has none/);
  });

  test('D30 audit on a change that runs in no transaction is refused, naming the route', () => {
    const route = defineRoute({ method: 'POST', path: '/v1/things/', access: 'public', transaction: false, audit: 'customer.created', handler });
    expect(start(route)).toThrow(/route POST \/v1\/things\/ cannot be honoured: 'audit' needs a transaction/);
    // The same route in a transaction is honoured.
    expect(() => createRouter(ctx, [{ ...route, transaction: undefined }])).not.toThrow();
  });

  test('D30 audit() called where no transaction runs is an error, not an entry dropped', async () => {
    const route = defineRoute({
      method: 'GET',
      path: '/v1/things/',
      access: 'public',
      handler: async ({ audit }) => (audit({ target: { type: 'thing', id: null, label: 'thing' } }), {}),
    });
    const req = { method: 'GET', url: '/api/v1/things/', headers: {} } as IncomingMessage;
    await expect(createRouter(ctx, [route]).handle(req, {} as ServerResponse, '/v1/things/')).rejects.toThrow(/GET \/v1\/things\/ runs in no transaction/);
  });

  test('D30 transaction on a GET is refused (reads run outside one)', () => {
    const route = defineRoute({ method: 'GET', path: '/v1/things/', access: 'public', transaction: true, handler });
    expect(start(route)).toThrow(/GET \/v1\/things\/.*'transaction' is not for a GET/);
  });

  test('D9 a permission on a route that is not an organization route is refused', () => {
    const route = { method: 'GET', path: '/v1/things/', access: 'user', permission: 'customers:view', handler } as unknown as RouteDef;
    expect(start(route)).toThrow(/GET \/v1\/things\/.*'permission' needs access 'org', not 'user'/);
  });

  test('D19 a body on a GET, or two descriptions of one body, are refused', () => {
    const get = { method: 'GET', path: '/v1/things/', access: 'public', body: { name: text({ max: 5 }) }, handler } as RouteDef;
    expect(start(get)).toThrow(/GET \/v1\/things\/.*a GET has no body/);
    const textBody = { maxBytes: 10, accepts: () => true, expected: 'text' };
    const both = defineRoute({ method: 'POST', path: '/v1/things/', access: 'public', body: { name: text({ max: 5 }) }, textBody, handler });
    expect(start(both)).toThrow(/POST \/v1\/things\/.*'body' and 'textBody' both describe the body/);
  });

  test('D19 partialBody or ignoreUnknownFields without a JSON body is refused', () => {
    for (const extra of [{ partialBody: true }, { ignoreUnknownFields: true }]) {
      const route = { method: 'PATCH', path: '/v1/things/', access: 'public', ...extra, handler } as RouteDef;
      expect(start(route)).toThrow(/PATCH \/v1\/things\/.*need a JSON 'body'/);
    }
  });

  test("D19 params that do not name the path's parameters are refused", () => {
    const missing = defineRoute({ method: 'GET', path: '/v1/things/:id/', access: 'public', handler });
    expect(start(missing)).toThrow(/GET \/v1\/things\/:id\/.*'params' \(none\) must name the path's parameters \(id\)/);
    const extra = defineRoute({ method: 'GET', path: '/v1/things/', access: 'public', params: { id: intText() }, handler });
    expect(start(extra)).toThrow(/'params' \(id\) must name the path's parameters \(none\)/);
  });

  test('D19 a field the router does not know (a misspelling) is refused', () => {
    const route = { method: 'POST', path: '/v1/things/', access: 'public', audits: 'customer.created', handler } as unknown as RouteDef;
    expect(start(route)).toThrow(/POST \/v1\/things\/.*'audits' is not a route field/);
  });
});

describe('STYLE the router finds a route by its path', () => {
  test('STYLE a static path wins over one with parameters; parameters are read; one spelling per route', async () => {
    const seen: string[] = [];
    const route = (path: string, params?: RouteDef['params']) =>
      defineRoute({ method: 'GET', path, access: 'public', params, handler: async ({ params: p }) => (seen.push(`${path} ${JSON.stringify(p)}`), RAW) });
    const router = createRouter({ config: { apiBase: '/api' } } as Ctx, [
      route('/v1/things/:id/', { id: text({ max: 10 }) }),
      route('/v1/things/latest/'),
      route('/v1/things/'),
      route('/v1/things/export.csv'),
      route('/v1/things/:id/notes/:note/', { id: text({ max: 10 }), note: intText() }),
    ]);
    const get = (path: string) => router.handle({ method: 'GET', url: `/api${path}`, headers: {} } as IncomingMessage, {} as ServerResponse, path);
    for (const path of ['/v1/things/latest/', '/v1/things/7/', '/v1/things/', '/v1/things/export.csv', '/v1/things/7/notes/3/']) await get(path);
    expect(seen).toEqual([
      '/v1/things/latest/ {}',
      '/v1/things/:id/ {"id":"7"}',
      '/v1/things/ {}',
      '/v1/things/export.csv {}',
      '/v1/things/:id/notes/:note/ {"id":"7","note":3}',
    ]);
    for (const path of ['/v1/things', '/v1/things//', '/v1//things/', '/v1/things/latest', '/v1/things/7/notes/', '/v1/things/7/notes/3']) {
      await expect(get(path), path).rejects.toMatchObject({ status: 404, code: 'not_found' });
    }
  });
});
