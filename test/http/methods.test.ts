// The client's writes (put/patch/delete, CSV uploads) and what its HttpError carries (D19, D29).
import { describe, expect, test, vi } from 'vitest';
import { createClient, type ClientDeps } from '../../src/http/client';
import { HttpError, isHttpError } from '../../src/http/errors';
import { FakeApi, json } from '../helpers/fake-api';

function setup(over: Partial<ClientDeps> = {}) {
  const api = new FakeApi();
  const token = api.issue().access_token;
  const client = createClient({
    base: () => '/api',
    accessToken: () => token,
    orgId: () => 1,
    refresh: vi.fn(async () => undefined),
    onRefreshFailed: vi.fn(),
    onMissingToken: vi.fn(),
    fetch: api.fetch as unknown as typeof fetch,
    log: { warn: vi.fn(), error: vi.fn() },
    ...over,
  });
  return { api, client };
}

const failing = (api: FakeApi, status: number, body: unknown) => api.routes.set('/v1/x/', () => json(status, body));

describe('SPEC §7 writes', () => {
  test.each([
    ['put', 'PUT'],
    ['patch', 'PATCH'],
    ['post', 'POST'],
  ] as const)('%s sends a JSON body with the bearer token and X-Organization-ID', async (method, verb) => {
    const { api, client } = setup();
    api.routes.set('/v1/customers/7/', (c) => json(200, { echoed: c.body }));
    const answer = await client[method]<{ echoed: unknown }>('/v1/customers/7/', { name: 'Ann', version: 3 });
    expect(answer.echoed).toEqual({ name: 'Ann', version: 3 });
    const call = api.calls[0]!;
    expect(call.method).toBe(verb);
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers.authorization).toMatch(/^Bearer /);
    expect(call.headers['x-organization-id']).toBe('1');
  });

  test('delete sends no body and answers null for a 204', async () => {
    const { api, client } = setup();
    api.routes.set('/v1/customers/7/', () => new Response(null, { status: 204 }));
    await expect(client.delete('/v1/customers/7/')).resolves.toBeNull();
    expect(api.calls[0]).toMatchObject({ method: 'DELETE', body: null });
    expect(api.calls[0]!.headers).not.toHaveProperty('content-type');
  });

  test('D27 a Blob body is sent as it is, labelled with its own type (a CSV file for the import)', async () => {
    const { api, client } = setup();
    api.routes.set('/v1/customers/import/preview/', (c) => json(200, { got: c.body }));
    const csv = 'name,email\nAnn,ann@example.com\n';
    await client.post('/v1/customers/import/preview/', new Blob([csv], { type: 'text/csv' }));
    expect(api.calls[0]).toMatchObject({ method: 'POST', body: csv, blobType: 'text/csv' });
    expect(api.calls[0]!.headers['content-type']).not.toBe('application/json');
  });
});

describe('D19 HttpError carries code and field', () => {
  test('D19 a 400 names its field: HttpError.field, .code and .detail', async () => {
    const { api, client } = setup();
    failing(api, 400, { detail: 'must be an email address', code: 'invalid', field: 'email' });
    const error = await client.post('/v1/x/', {}).catch((e: unknown) => e);
    expect(isHttpError(error, 400)).toBe(true);
    expect(error).toMatchObject({ status: 400, code: 'invalid', field: 'email', detail: 'must be an email address' });
  });

  test('D19 a 409 duplicate_email keeps the whole answer in data (the existing customer)', async () => {
    const { api, client } = setup();
    failing(api, 409, { detail: 'taken', code: 'duplicate_email', field: 'email', existing: { id: 4, name: 'Ann' } });
    const error = (await client.post('/v1/x/', {}).catch((e: unknown) => e)) as HttpError;
    expect(error.code).toBe('duplicate_email');
    expect((error.data as { existing: unknown }).existing).toEqual({ id: 4, name: 'Ann' });
  });

  test('an answer without them (or not JSON at all) gives null, never a crash', () => {
    expect(new HttpError(500, 'Bad gateway', '/x')).toMatchObject({ code: null, field: null, detail: null });
    expect(new HttpError(500, null, '/x').field).toBeNull();
    expect(new HttpError(400, { field: 7, code: ['x'] }, '/x')).toMatchObject({ code: null, field: null });
  });
});

describe('D29 a 403 permission_denied is reported to the session', () => {
  test('D29 the hook hears a permission_denied refusal; other 403s and errors pass it by', async () => {
    const onPermissionDenied = vi.fn();
    const { api, client } = setup({ onPermissionDenied });
    failing(api, 403, { detail: 'no', code: 'permission_denied' });
    await expect(client.get('/v1/x/')).rejects.toBeInstanceOf(HttpError);
    expect(onPermissionDenied).toHaveBeenCalledTimes(1);
    expect(onPermissionDenied.mock.calls[0]![0]).toMatchObject({ status: 403, code: 'permission_denied' });
    failing(api, 403, { detail: 'not a member', code: 'not_a_member' });
    await expect(client.get('/v1/x/')).rejects.toBeInstanceOf(HttpError);
    failing(api, 400, { detail: 'bad', code: 'permission_denied' });
    await expect(client.get('/v1/x/')).rejects.toBeInstanceOf(HttpError);
    expect(onPermissionDenied).toHaveBeenCalledTimes(1);
  });
});
