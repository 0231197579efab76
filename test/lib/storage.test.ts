import { describe, expect, test } from 'vitest';
import { clearSessionStorage, createStorage, isInAppPath, KEYS, parseIntStrict, readRedirect, SESSION_KEYS, storeRedirect } from '../../src/lib/storage';
import { MemoryStorage } from '../helpers/fake-api';

describe('SPEC §3 browser storage', () => {
  test('SPEC §3 every storage key has its specified name (and D36 device_token)', () => {
    expect(Object.values(KEYS).sort()).toEqual(
      [
        'access_token',
        'refresh_token',
        'session_id',
        'refresh_expires_at',
        'remember_me',
        'current_org_id',
        'post_login_redirect',
        'hydration_failed',
        'toast_reason',
        'post_login_triggered',
        'theme',
        'device_token',
      ].sort(),
    );
  });

  test('D36 device_token is not part of the session: clearing the session keeps it', () => {
    const kv = new MemoryStorage();
    const s = createStorage(kv);
    s.set(KEYS.accessToken, 'a.b.c');
    s.set(KEYS.deviceToken, 'd1.1.x.y');
    clearSessionStorage(s, null);
    expect(s.get(KEYS.accessToken)).toBeNull();
    expect(s.get(KEYS.deviceToken)).toBe('d1.1.x.y');
    expect(SESSION_KEYS).not.toContain(KEYS.deviceToken);
  });

  test('SPEC §3 session_id and current_org_id read back as integers, or null if absent or not numeric', () => {
    const kv = new MemoryStorage();
    const s = createStorage(kv);
    expect(s.getInt(KEYS.sessionId)).toBeNull();
    s.set(KEYS.sessionId, '42');
    s.set(KEYS.currentOrgId, '7');
    expect(s.getInt(KEYS.sessionId)).toBe(42);
    expect(s.getInt(KEYS.currentOrgId)).toBe(7);
    for (const garbage of ['abc', '12abc', '', '1.5', '1e3', 'null', '{"a":1}', ' ', 'NaN', '99999999999999999999']) {
      kv.setItem('current_org_id', garbage);
      expect(s.getInt(KEYS.currentOrgId), garbage).toBeNull();
    }
    expect(parseIntStrict('-3')).toBe(-3);
  });

  test('garbage or failing storage never throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const s = createStorage(broken);
    expect(s.get(KEYS.accessToken)).toBeNull();
    expect(() => s.set(KEYS.accessToken, 'x')).not.toThrow();
    expect(() => s.remove(KEYS.accessToken)).not.toThrow();
    expect(s.getInt(KEYS.sessionId)).toBeNull();
    expect(createStorage(null).get(KEYS.theme)).toBeNull();
  });

  test('SPEC §3 clearing the session removes the session keys and expires the token cookies', () => {
    const kv = new MemoryStorage();
    const s = createStorage(kv);
    for (const k of ['access_token', 'refresh_token', 'session_id', 'refresh_expires_at', 'remember_me', 'theme', 'current_org_id'] as const) s.set(k, '1');
    const cookies: string[] = [];
    clearSessionStorage(s, {
      set cookie(v: string) {
        cookies.push(v);
      },
      get cookie() {
        return '';
      },
    });
    for (const k of ['access_token', 'refresh_token', 'session_id', 'refresh_expires_at', 'remember_me']) expect(kv.getItem(k), k).toBeNull();
    expect(kv.getItem('theme')).toBe('1');
    expect(cookies.some((c) => c.startsWith('access_token=;') && /Max-Age=0/.test(c))).toBe(true);
    expect(cookies.some((c) => c.startsWith('refresh_token=;') && /Max-Age=0/.test(c))).toBe(true);
  });

  test('SPEC §3 clearing expires real document cookies', () => {
    document.cookie = 'access_token=abc; path=/';
    document.cookie = 'refresh_token=def; path=/';
    clearSessionStorage(createStorage(new MemoryStorage()));
    expect(document.cookie).not.toMatch(/access_token=abc|refresh_token=def/);
  });
});

describe('D6 post_login_redirect', () => {
  test('D6 only in-app paths are accepted: one leading slash, not //, not /login', () => {
    expect(isInAppPath('/customers/3')).toBe(true);
    expect(isInAppPath('/customers?q=a#x')).toBe(true);
    for (const bad of ['//evil.test/x', '/\\evil.test', 'https://evil.test', 'customers', '/login', '/login?x=1', '', '/a\nb']) {
      expect(isInAppPath(bad), bad).toBe(false);
    }
    expect(isInAppPath('/login-help')).toBe(true);
  });

  test('D6 the stored target records whose it is and reads back; garbage reads as none', () => {
    const kv = new MemoryStorage();
    const s = createStorage(kv);
    storeRedirect(s, '/customers/5', '12');
    expect(readRedirect(s)).toEqual({ path: '/customers/5', sub: '12' });
    storeRedirect(s, '//evil.test', '12'); // refused: the earlier value stays
    expect(readRedirect(s)?.path).toBe('/customers/5');
    kv.setItem('post_login_redirect', '/jobs');
    expect(readRedirect(s)).toEqual({ path: '/jobs', sub: null });
    for (const g of ['{broken', '{"path":"//x"}', 'https://evil.test', '{"path":5}', '[]', 'null']) {
      kv.setItem('post_login_redirect', g);
      expect(readRedirect(s), g).toBeNull();
    }
  });
});
