// D13 scrubbing through the real SDK: events go to an in-memory transport and are read back.
import { addBreadcrumb, captureException, close, createTransport, flush, setContext, setExtra } from '@sentry/browser';
import { afterAll, describe, expect, it } from 'vitest';
import '../ui/no-console';
import { initSentry, sentryOptions, TRACES_SAMPLE_RATE } from '../../src/telemetry/sentry';

const DSN = 'https://public@o1.ingest.example.test/1';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
const envelopes: string[] = [];
const decoder = new TextDecoder();

const report = initSentry(DSN, {
  // In-memory transport: collects each envelope instead of sending it.
  transport: (options) =>
    createTransport(options, async (request) => {
      envelopes.push(typeof request.body === 'string' ? request.body : decoder.decode(request.body));
      return { statusCode: 200 };
    }),
  // Tracing and replay are left out here (happy-dom has no real rendering); sentryOptions is checked below.
  integrations: [],
  defaultIntegrations: false,
});

afterAll(() => close());

describe('error reporting (D13)', () => {
  it('D13 traces at sample rate 1, replay with all text and inputs masked and media blocked', () => {
    const options = sentryOptions(DSN);
    expect(TRACES_SAMPLE_RATE).toBe(1);
    expect(options.tracesSampleRate).toBe(1);
    const integrations = options.integrations as { name: string; _initialOptions?: Record<string, unknown> }[];
    expect(integrations.map((i) => i.name)).toEqual(expect.arrayContaining(['BrowserTracing', 'Replay']));
    // The replay integration keeps the options it was created with.
    expect(integrations.find((i) => i.name === 'Replay')?._initialOptions).toMatchObject({ maskAllText: true, maskAllInputs: true, blockAllMedia: true });
    expect(options.beforeSend).toBeTypeOf('function');
    expect(options.beforeBreadcrumb).toBeTypeOf('function');
  });

  it('D13 tokens, passwords, Authorization headers and auth-call bodies never reach the transport', async () => {
    addBreadcrumb({ category: 'fetch', data: { method: 'POST', url: '/api/v1/auth/login/', status_code: 401, body: '{"password":"hunter2"}' } });
    addBreadcrumb({ category: 'console', message: `stored token ${JWT}` });
    setExtra('request', { url: '/api/v1/auth/refresh/', data: { refresh_token: 'r-secret-1' } });
    setContext('http', { headers: { Authorization: `Bearer ${JWT}` }, password: 'hunter2' });
    report(new Error(`refresh failed for ${JWT}`));
    captureException(new Error('with refresh_token=r-secret-2 in the url ?refresh_token=r-secret-2'));
    await flush(2000);
    const sent = envelopes.join('\n');
    expect(envelopes.length).toBeGreaterThanOrEqual(2);
    expect(sent).toContain('refresh failed for [Filtered]');
    expect(sent).toContain('[Filtered]');
    for (const secret of [JWT, 'hunter2', 'r-secret-1', 'r-secret-2']) expect(sent).not.toContain(secret);
    expect(sent).toContain('/api/v1/auth/login/');
  });
});
