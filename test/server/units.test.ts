// The server's pure parts, checked directly: configuration, JWT, refresh-token sealing, passwords,
// client keys and the page's config injection.
import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { signAccessToken, verifyAccessToken } from '../../server/auth/jwt';
import { burnPasswordTime, hashPassword, needsRehash, parseHash, verifyPassword } from '../../server/auth/passwords';
import { MAX_SESSION_AGE_MS, sessionExpiry } from '../../server/auth/sessions';
import { clientKey } from '../../server/auth/throttle';
import { hashToken, newRefreshToken, openSuccessor, sealSuccessor } from '../../server/auth/tokens';
import { CUSTOMER_STATUSES } from '../../contract/customers';
import { ConfigError, loadConfig } from '../../server/config';
import { customSortedJson } from '../../server/custom-list';
import { listCustomersJson, type PageFilter } from '../../server/customer-list';
import type { QueryOptions, Queryable } from '../../server/db';
import { containsPattern } from '../../server/features/customers/repo';
import { listQuery } from '../../server/features/customers/schema';
import { parseShape, queryValues } from '../../server/schema';
import { clientAddress } from '../../server/http';
import { MIGRATIONS } from '../../server/migrations';
import { demoCustomers, ELECTRICAL_NOTES, PLUMBING_NOTES } from '../../server/seed-data';
import { contentSecurityPolicy, injectConfig, inlineScriptHashes, scriptJson } from '../../server/static';
import { DAY, forgeJwt, TEST_SCRYPT } from './helpers';

const SECRET = 'unit-test-secret-unit-test-secret-0123';
const parseListQuery = (search: string) => parseShape(listQuery, queryValues(new URLSearchParams(search), listQuery));

describe('configuration', () => {
  test('D2 defaults: port 8080, ./data, /api, demo seed, 15-minute access tokens', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.dataDir.endsWith('data')).toBe(true);
    expect(c.apiBase).toBe('/api');
    expect(c.seed).toBe('demo');
    expect(c.accessTokenTtlS).toBe(900);
    expect(c.trustProxy).toBe(0);
    expect(c.databaseUrl).toBeNull();
  });

  test('bad values stop the start with a message naming the variable', () => {
    for (const [env, name] of [
      [{ PORT: 'http' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ SEED: 'all' }, 'SEED'],
      [{ API_BASE: 'api' }, 'API_BASE'],
      [{ API_BASE: '/' }, 'API_BASE'],
      [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
      [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
      [{ SENTRY_DSN: 'not a url' }, 'SENTRY_DSN'],
      [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
      [{ ACCESS_TOKEN_TTL: '5' }, 'ACCESS_TOKEN_TTL'],
    ] as const) {
      expect(() => loadConfig(env), name).toThrow(ConfigError);
      expect(() => loadConfig(env), name).toThrow(name);
    }
  });

  test('D3 SEED=none; TRUST_PROXY true or a hop count; API_BASE loses its trailing slash', () => {
    const c = loadConfig({ SEED: 'none', TRUST_PROXY: 'true', API_BASE: '/backend/' });
    expect([c.seed, c.trustProxy, c.apiBase]).toEqual(['none', 1, '/backend']);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });
});

describe('D16 access tokens', () => {
  const claims = { sub: '7', sid: 3, iat: 1000, exp: 1900 };

  test('D16 a signed token verifies until exp, then is expired', () => {
    const token = signAccessToken(claims, SECRET);
    expect(verifyAccessToken(token, SECRET, 1899)).toEqual({ ok: true, claims });
    expect(verifyAccessToken(token, SECRET, 1900)).toEqual({ ok: false, reason: 'expired' });
  });

  test('D16 only HS256 with our key and well-formed claims is accepted', () => {
    const bad = [
      forgeJwt({ alg: 'none', typ: 'JWT' }, claims, null),
      forgeJwt({ alg: 'HS256', typ: 'JWT' }, claims, 'other-key'),
      forgeJwt({ alg: 'HS384', typ: 'JWT' }, claims, SECRET),
      forgeJwt({ alg: 'HS256', typ: 'JWT', crit: ['x'] }, claims, SECRET),
      forgeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, sub: 7 }, SECRET),
      forgeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, sid: '3' }, SECRET),
      forgeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, exp: undefined }, SECRET),
      forgeJwt({ alg: 'HS256', typ: 'JWT' }, [1, 2], SECRET),
      'a.b',
      'a.b.c.d',
      '..',
      'e30.e30.e30',
      `${'a'.repeat(5000)}.b.c`,
      'é.é.é',
    ];
    for (const token of bad) expect(verifyAccessToken(token, SECRET, 1000).ok, token.slice(0, 60)).toBe(false);
  });

  test('D16 a signature spelled another way in base64url (the spare bits of its last character) is refused', () => {
    const token = signAccessToken(claims, SECRET);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(token.at(-1) ?? '');
    // 32 bytes are 43 characters; the last one carries 4 bits and 2 spare ones, so 3 other spellings decode alike.
    const variants = [1, 2, 3].map((bits) => `${token.slice(0, -1)}${alphabet[last ^ bits] ?? ''}`);
    for (const v of variants) expect(Buffer.from(v.split('.')[2] ?? '', 'base64url')).toEqual(Buffer.from(token.split('.')[2] ?? '', 'base64url'));
    for (const v of variants) expect(verifyAccessToken(v, SECRET, 1000)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyAccessToken(token, SECRET, 1000).ok).toBe(true);
  });

  test('D16 a token found good once is still checked: its expiry each time, its key, its every character', () => {
    const token = signAccessToken({ ...claims, sid: 4 }, SECRET);
    expect(verifyAccessToken(token, SECRET, 1000).ok).toBe(true);
    expect(verifyAccessToken(token, 'another-key', 1000)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyAccessToken(`${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1) ?? ''}`, SECRET, 1000)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(verifyAccessToken(token, SECRET, 1900)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyAccessToken(token, SECRET, 1899)).toEqual({ ok: true, claims: { ...claims, sid: 4 } });
  });

  test('D16 session expiry: 30 days or 1 day from now, never past 90 days from login', () => {
    expect(sessionExpiry(0, 0, true)).toBe(30 * DAY);
    expect(sessionExpiry(0, 0, false)).toBe(DAY);
    expect(sessionExpiry(0, 80 * DAY, true)).toBe(MAX_SESSION_AGE_MS);
    expect(MAX_SESSION_AGE_MS).toBe(90 * DAY);
  });
});

describe('D16 D8 refresh tokens', () => {
  test('D16 refresh tokens are 256-bit random strings; the stored form is their SHA-256', () => {
    const a = newRefreshToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newRefreshToken()).not.toBe(a);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(a)).not.toContain(a);
  });

  test('D8 the sealed successor opens only with the token it was sealed under', () => {
    const old = newRefreshToken();
    const next = newRefreshToken();
    const sealed = sealSuccessor(next, old);
    expect(sealed).not.toContain(next);
    expect(openSuccessor(sealed, old)).toBe(next);
    expect(openSuccessor(sealed, newRefreshToken())).toBeNull();
    expect(openSuccessor(sealed.slice(0, -4) + 'AAAA', old)).toBeNull();
    expect(openSuccessor('', old)).toBeNull();
  });
});

describe('D17 passwords', () => {
  test('D17 hashes verify the right password only, in PHC format', async () => {
    const hash = await hashPassword('correct horse', TEST_SCRYPT);
    expect(hash).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsf', hash)).toBe(false);
    expect(await verifyPassword('x', 'garbage', TEST_SCRYPT)).toBe(false);
    expect(await burnPasswordTime('x', TEST_SCRYPT)).toBe(false);
  });

  test('D17 parameters read from the database are bounded; weaker hashes need a rehash, stronger ones do not', async () => {
    expect(parseHash('$scrypt$ln=40,r=8,p=1$AAAA$AAAA')).toBeNull();
    expect(parseHash('$scrypt$ln=17,r=99,p=1$AAAA$AAAA')).toBeNull();
    const weak = await hashPassword('p', TEST_SCRYPT);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(weak, TEST_SCRYPT)).toBe(false);
    expect(needsRehash('$scrypt$ln=18,r=8,p=1$AAAA$AAAA')).toBe(false);
  });
});

describe('D18 client keys', () => {
  const request = (forwarded: string | undefined) =>
    ({ socket: { remoteAddress: '10.9.9.9' }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }) as unknown as IncomingMessage;

  test('D18 a forwarded address written with a port counts as that address, not as the proxy', () => {
    expect(clientAddress(request('198.51.100.1, 203.0.113.7:5678'), 1)).toBe('203.0.113.7');
    expect(clientAddress(request('[2001:db8::1]:443'), 1)).toBe('2001:db8::1');
    expect(clientAddress(request('[2001:db8::2]'), 1)).toBe('2001:db8::2');
    expect(clientAddress(request('203.0.113.7'), 1)).toBe('203.0.113.7');
    expect(clientAddress(request('2001:db8::3'), 1)).toBe('2001:db8::3');
    // Not an address: the connection's own; without TRUST_PROXY the header is never read.
    for (const bad of ['unknown', 'evil.example:80', '203.0.113.7:port', '[nope]:1', '']) expect(clientAddress(request(bad), 1), bad).toBe('10.9.9.9');
    expect(clientAddress(request(undefined), 1)).toBe('10.9.9.9');
    expect(clientAddress(request('203.0.113.7:5678'), 0)).toBe('10.9.9.9');
  });

  test('D18 IPv4 as is (also when IPv4-mapped); IPv6 per /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('D1 D20 the page', () => {
  test('D1 config JSON cannot end the script early', () => {
    const json = scriptJson({ apiBase: '/api', sentryDsn: '</script><script>alert(1)</script>\u2028<!--' });
    expect(json).not.toMatch(/[<>\u2028]/);
    expect(JSON.parse(json)).toEqual({ apiBase: '/api', sentryDsn: '</script><script>alert(1)</script>\u2028<!--' });
  });

  test('D1 the config script goes before the first script in <head>, or at its end', () => {
    const cfg = { apiBase: '/api', sentryDsn: null };
    const withScript = injectConfig('<html><head><meta charset="utf-8"><script>a()</script></head></html>', cfg);
    expect(withScript).toMatch(/<meta charset="utf-8"><script>window.__APP_CONFIG__=.*<\/script>\n<script>a\(\)/);
    const without = injectConfig('<html><head><title>x</title></head><body><script>b()</script></body></html>', cfg);
    expect(without.indexOf('__APP_CONFIG__')).toBeLessThan(without.indexOf('</head>'));
  });

  test('D20 inline scripts are hashed, external ones are not; the CSP lists them', () => {
    const hashes = inlineScriptHashes('<script>x()</script><script type="module" src="/a.js"></script><script type="module">y()</script>');
    expect(hashes).toHaveLength(2);
    const csp = contentSecurityPolicy(hashes, 'https://o1.ingest.sentry.io');
    expect(csp).toContain(`script-src 'self' ${hashes.join(' ')};`);
    expect(csp).toContain("connect-src 'self' https://o1.ingest.sentry.io;");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});

describe('schema and demo data', () => {
  test('migrations are numbered 1, 2, … without gaps', () => {
    const last = MIGRATIONS.at(-1)?.version ?? 0;
    expect(MIGRATIONS.map((m) => m.version)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
  });

  test("D3 a business's demo notes fit its trade: Beacon Electric's are about wiring, not pipes", () => {
    const beacon = demoCustomers(23, 30, 8, 50, ELECTRICAL_NOTES);
    const notes = beacon.flatMap((c) => c.notes);
    expect(notes.length).toBeGreaterThan(5);
    for (const n of notes) expect(ELECTRICAL_NOTES).toContain(n);
    expect(notes.join(' ')).not.toMatch(/leak|sink|pipe|water heater|drain|plumb/i);
    expect(PLUMBING_NOTES.join(' ')).toMatch(/leak|water heater/i);
    // The same customers either way: only the notes' words differ.
    expect(demoCustomers(23, 30, 8, 50).map((c) => [c.name, c.notes.length])).toEqual(beacon.map((c) => [c.name, c.notes.length]));
  });

  test('D3 demo customers are deterministic, unique by name, with fictional emails and phones', () => {
    const a = demoCustomers(11, 36, 5, 0);
    expect(demoCustomers(11, 36, 5, 0)).toEqual(a);
    expect(new Set(a.map((c) => c.name)).size).toBe(36);
    for (const c of a) {
      expect(c.email).toMatch(/@([a-z0-9-]+\.)*(example\.(com|net|org)|[a-z0-9]+\.example|mail\.example)$/);
      expect(c.phone).toMatch(/^\(503\) 555-01\d\d$/);
      expect(`${c.address_line}, ${c.city}, ${c.region} ${c.postal_code}`).toMatch(/^\d+ .+, .+, [A-Z]{2} \d{5}$/);
      expect(c.changedDays).toBeLessThanOrEqual(c.ageDays);
    }
    // D22 D32: every status, some tags and notes, and a few customers new this week, so each screen has something to show.
    expect(new Set(a.map((c) => c.status))).toEqual(new Set(['lead', 'active', 'inactive']));
    expect(a.filter((c) => c.tags.length > 0).length).toBeGreaterThan(5);
    expect(a.filter((c) => c.notes.length > 0).length).toBeGreaterThan(5);
    expect(a.filter((c) => c.ageDays < 7).length).toBeGreaterThanOrEqual(2);
  });
});

describe('customers list query', () => {
  test('D9 defaults: no search, page 1, 25 per page; q is trimmed; unknown parameters are ignored', () => {
    const defaults = {
      q: null,
      status: null,
      tag: null,
      sort: 'name',
      page: 1,
      page_size: 25,
      deleted: 'false',
      type: null,
      do_not_service: null,
      created_since: null,
      assigned: null,
      'cf.*': [],
    };
    expect(parseListQuery('')).toEqual(defaults);
    expect(parseListQuery('q=%20%20Ann+Lee%20&page=3&page_size=100&sort=-updated_at&other=x')).toEqual({
      ...defaults,
      q: 'Ann Lee',
      page: 3,
      page_size: 100,
      sort: '-updated_at',
    });
    expect(parseListQuery('q=&status=lead&tag=%20VIP%20')).toEqual({ ...defaults, status: 'lead', tag: 'VIP' });
  });

  test('D19 each bad value throws a 400 naming its parameter', () => {
    const cases = [
      ['page=0', 'page'],
      ['page_size=101', 'page_size'],
      [`q=${'x'.repeat(101)}`, 'q'],
      ['q=%00', 'q'],
      ['q=a&q=b', 'q'],
      ['sort=email', 'sort'],
      ['status=deleted', 'status'],
      [`tag=${'t'.repeat(31)}`, 'tag'],
    ] as const;
    for (const [query, field] of cases) {
      expect(() => parseListQuery(query), query).toThrow(expect.objectContaining({ status: 400, extra: { field } }));
    }
  });

  test('LIKE patterns take %, _ and \\ literally', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});

describe('the list statements and the plan cache', () => {
  /** A database that answers an empty page and notes how each statement asked to be run. */
  const recording = () => {
    const asked: (QueryOptions | undefined)[] = [];
    const db: Queryable = {
      query: async (_text, _params, opts) => {
        asked.push(opts);
        return [{ body: '{"count":0,"results":[]}' }] as never;
      },
    };
    return { db, asked };
  };
  const scope = { orgId: 1, assignedTo: null };
  const browse: PageFilter = { q: null, status: null, tag: null, sort: 'name', page: 1, pageSize: 25 };
  const byOption = { key: 'plan', op: 'equals', type: 'choice', value: 'o1' } as const;

  test('D56 a list with a custom field condition or sort is planned for its values; plain browsing and searching stay prepared', async () => {
    const { db, asked } = recording();
    await listCustomersJson(db, scope, browse);
    await listCustomersJson(db, scope, { ...browse, q: 'smith' });
    await listCustomersJson(db, scope, { ...browse, status: 'active', custom: [byOption] });
    await customSortedJson(db, scope, { ...browse, customSort: { key: 'plan', dir: 'asc' } });
    expect(asked.map((o) => Boolean(o?.replan))).toEqual([false, false, true, true]);
  });

  /** The statements' texts as the database would be given them. */
  const texts = () => {
    const said: string[] = [];
    const db: Queryable = {
      query: async (text) => {
        said.push(text);
        return [{ body: '{"count":0,"results":[]}' }] as never;
      },
    };
    return { db, said };
  };
  const cte = (text: string, name: string) => text.slice(text.indexOf(`${name} as materialized (`)).split(/\n\s*[a-z]+ as (materialized )?\(/)[0]!;
  const empty = { key: 'model', op: 'empty', type: 'text', value: 'true' } as const;

  test("D56 'is empty' looks each customer up up to the page's edge (a narrow range), and joins where it counts the matches", async () => {
    const { db, said } = texts();
    await listCustomersJson(db, scope, { ...browse, custom: [empty] });
    expect(cte(said[0]!, 'upto')).toMatch(/e\.customer_id = customers\.id offset 0\)/);
    expect(cte(said[0]!, 'hits')).not.toMatch(/offset 0/);
  });

  test("D56 a custom sort with a filter looks up each match's value and never walks the table's ids (where other organizations' customers lie)", async () => {
    const { db, said } = texts();
    await customSortedJson(db, scope, { ...browse, tag: 'vip', customSort: { key: 'plan', dir: 'desc' } });
    expect(said[0]).toMatch(
      /left join lateral \(select e\.num, e\.txt, true as has from customer_custom_values e\s+where e\.org_id = \$1 and e\.key = \$\d+ and e\.customer_id = m\.id limit 1\)/,
    );
    expect(said[0]).not.toMatch(/from customers where [^()]*(\([^()]*\)[^()]*)*order by id/);
  });

  test("D56 a custom sort without a filter finds the customers without a value by id within each status, never along the table's ids", async () => {
    const { db, said } = texts();
    await customSortedJson(db, scope, { ...browse, customSort: { key: 'plan', dir: 'desc' } });
    const others = cte(said[0]!, 'others');
    for (const status of CUSTOMER_STATUSES) expect(others).toContain(`status = '${status}'`);
    expect(others.match(/from customers where/g)).toHaveLength(CUSTOMER_STATUSES.length);
  });
});
