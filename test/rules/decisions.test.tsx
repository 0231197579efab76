// D1, D7, D8, D14 and D21 where the existing suites pass the rule in from outside (a base path, an
// organization getter, a lock, a query cache) and so could not see it break inside the app.
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import '../ui/no-console';
import { appConfig } from '../../src/app/config';
import { connectivity, startConnectivity } from '../../src/http/connectivity';
import { KEYS } from '../../src/lib/storage';
import { useQuery } from '../../src/query/use-query';
import type { Session } from '../../src/session/controller';
import { defaultLock } from '../../src/session/lock';
import { OfflineBanner } from '../../src/ui/offline-banner';
import { FakeApi, MemoryStorage } from '../helpers/fake-api';
import { makeSession } from '../helpers/session';
import { FakeLocks } from '../helpers/tabs';

afterEach(() => {
  connectivity.setState(true);
  delete (window as { __APP_CONFIG__?: unknown }).__APP_CONFIG__;
  vi.restoreAllMocks();
});

describe('D1 API base', () => {
  test("D1 the API base is '/api' by default and read from window.__APP_CONFIG__ at run time", () => {
    expect(appConfig(window).apiBase).toBe('/api');
    window.__APP_CONFIG__ = { apiBase: '/crm/api/', sentryDsn: null };
    expect(appConfig(window).apiBase).toBe('/crm/api');
  });

  test("D1 without a configured base the session calls '/api/v1/auth/login/' with credentials omitted", async () => {
    const t = makeSession({ base: undefined });
    await t.session.load();
    await t.session.login({ email: 'a@b.test', password: 'pw' });
    const login = t.api.calls.find((c) => c.path.endsWith('/v1/auth/login/'));
    expect(login?.path).toBe('/api/v1/auth/login/');
    expect(login?.method).toBe('POST');
    expect(t.api.calls.every((c) => c.credentials === 'omit')).toBe(true);
  });
});

describe('D7 offline at start', () => {
  test('D7 offline at start-up: the offline banner shows and the body gets the offline class', () => {
    Object.defineProperty(window.navigator, 'onLine', { value: false, configurable: true });
    try {
      connectivity.setState(true); // as if the page had been online when the module loaded
      const stop = startConnectivity(window);
      render(<OfflineBanner />);
      expect(screen.getByRole('status').textContent).toBe('Connection lost. Changes may not save.');
      expect(document.body.classList.contains('offline')).toBe(true);
      stop();
    } finally {
      Reflect.deleteProperty(window.navigator, 'onLine');
    }
  });
});

describe('D8 Web Lock with a fallback', () => {
  test('D8 the refresh lock uses navigator.locks when the browser has it', async () => {
    const locks = new FakeLocks();
    Object.defineProperty(window.navigator, 'locks', { value: locks.asManager(), configurable: true });
    try {
      await expect(defaultLock()(async () => 'done')).resolves.toBe('done');
      expect(locks.requests).toEqual([{ ifAvailable: true }]);
    } finally {
      Reflect.deleteProperty(window.navigator, 'locks');
    }
  });

  test('D8 without navigator.locks the refresh lock falls back to a record in storage', async () => {
    Object.defineProperty(window.navigator, 'locks', { value: undefined, configurable: true });
    try {
      let held: string | null = null;
      await defaultLock()(async () => {
        held = localStorage.getItem('auth_refresh_lock');
      });
      expect(held).not.toBeNull();
      expect(localStorage.getItem('auth_refresh_lock')).toBeNull(); // released
    } finally {
      Reflect.deleteProperty(window.navigator, 'locks');
    }
  });
});

describe('D21 one organization per tab', () => {
  test('D21 after another tab switches organization, this tab still sends the X-Organization-ID it shows and does not write its own back', async () => {
    const api = new FakeApi();
    const kv = new MemoryStorage();
    const a = makeSession({ api, kv });
    const b = makeSession({ api, kv });
    a.seed();
    a.storage.set(KEYS.currentOrgId, '1');
    await a.session.load();
    await b.session.load();
    expect(a.session.store.getState().currentOrg?.id).toBe(1);
    b.session.switchOrg(2); // the other tab; this one reloads on the storage event (tested with the watchers)
    await a.session.client.get('/v1/things');
    expect(api.calls.at(-1)?.headers['x-organization-id']).toBe('1');
    await a.session.refresh();
    expect(api.calls.filter((c) => c.path === '/api/v1/auth/me/').at(-1)?.headers['x-organization-id']).toBe('1');
    expect(kv.getItem('current_org_id')).toBe('2');
  });
});

describe('D14 / SPEC §4 refetch after a token refresh, as the app wires it', () => {
  function Things({ session }: { session: Session }) {
    const q = useQuery({ key: ['d14-wiring-things'], fetch: () => session.client.get<{ ok: boolean }>('/v1/things') });
    return <p>{q.status}</p>;
  }

  test("D14 a refresh makes the app's own query cache refetch a shown query once", async () => {
    const t = makeSession();
    t.seed();
    await t.session.load();
    render(<Things session={t.session} />); // no QueryProvider: the app's default cache
    await screen.findByText('success');
    expect(t.api.count('/api/v1/things')).toBe(1);
    await t.session.refresh();
    await waitFor(() => expect(t.api.count('/api/v1/things')).toBe(2));
    await new Promise((r) => setTimeout(r, 20));
    expect(t.api.count('/api/v1/things')).toBe(2); // once
  });
});
