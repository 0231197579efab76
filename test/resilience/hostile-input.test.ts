// D19 hostile input over every route: requests generated from the route table (catalog.ts) with a
// seeded PRNG, sent anonymously and as the signed-in demo owner (so they pass authentication and reach
// the input checks). Every request is built to fail (catalog.ts mustFail), so the database must be
// exactly as before; no answer may be a 5xx; every error is JSON {detail, code}; the server stays
// healthy; no secret reaches the log, an error answer or the activity log.
import type { Agent } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SUITE_ENV } from '../server/api-common';
import { forEachBackend, type Backend } from '../server/backends';
import { createUser, decodeJwt, DEMO_PASSWORD, forgeJwt, orgId, rawRequest, tokens, type Tokens } from '../server/helpers';
import {
  absentParams,
  API,
  BAD_CSV,
  badValues,
  CATALOG,
  encode,
  HOSTILE_STRINGS,
  mustFail,
  prng,
  queryString,
  refusedValue,
  refuses,
  routePath,
  SUITE_PASSWORD,
  validBody,
  validQuery,
  type CatalogRoute,
  type Field,
} from './catalog';
import { changedTables, digest } from './digest';
import { mfaJourney, type V1Call } from './mfa-journey';
import { assertNoSecrets, auditRows, jwtSecretOf, serverSecrets, type Secret } from './secrets';
import { errorShapeProblem, makeAgent, pooled, send, type Answer, type Hostile } from './send';

const SEED = 0x5eed_2026;
const MIN_REQUESTS = 1500;
/** In flight at once: enough to overlap the database's work, few enough for a shared two-core machine. */
const WIDTH = 4;
/** The cases are many; a run past this many is a generator gone wrong, not more coverage. */
const MAX_REQUESTS = 20_000; // grows with the route table (issue 20 added the account calls, issues 36–37 custom fields and views, D59 a scoped member's fuzzing)
/** A bound for a stuck run on a busy machine, not a speed requirement: every request is sent and must be answered. */
const RUN_TIMEOUT_MS = 600_000;
/** The share of a guest's calls to session routes that are sent (see cases()). */
const ANONYMOUS_401_SAMPLE = 0.25;
/** Hostile strings per text field, picked by the PRNG (text at the length limit is always sent). */
const HOSTILE_PER_FIELD = 8;
const ACME = 'Acme Plumbing';
const BEACON = 'Beacon Electric';
const FOREIGN = 'Hostile Foreign Co';

/**
 * Tables left out of the before/after digest, each because a refused request writes to it by design:
 * - login_attempts: D18 records every failed login and every invitation-link look-up (to throttle
 *   guessing) before it knows the answer; hostile logins and token guesses must be recorded there.
 * Everything else, audit_log and sessions included, must be byte for byte as it was.
 */
const DIGEST_EXCLUDES = ['login_attempts'];

interface Who {
  name: 'anonymous' | 'owner' | 'scoped';
  headers: Record<string, string>;
}

interface Parts {
  params: Record<string, string>;
  query: Record<string, string>;
  /** A JSON value to send (undefined: no body), or raw text/bytes. */
  body?: unknown;
  raw?: string | Buffer;
  contentType?: string | null;
}

const isPublic = (r: CatalogRoute) => r.def.access === 'public';

/** The request every case of a route starts from: it must fail whoever sends it (catalog.ts mustFail). */
function baseParts(r: CatalogRoute): Parts {
  const fail = mustFail(r);
  const parts: Parts = { params: absentParams(r), query: validQuery(r) };
  if (r.def.textBody) return { ...parts, raw: fail.kind === 'bad-csv' ? BAD_CSV : 'name\r\nx\r\n', contentType: 'text/csv' };
  if (r.def.body) {
    const body = validBody(r);
    if (fail.kind === 'refused-field') body[fail.field.name] = refusedValue(fail.field);
    return { ...parts, body };
  }
  if (fail.kind === 'stray-body') return { ...parts, body: {} };
  return parts;
}

function build(r: CatalogRoute, who: Who, label: string, parts: Parts, extra: Partial<Hostile> = {}): Hostile {
  const headers: Record<string, string> = { ...who.headers };
  let body: string | Buffer | undefined;
  if (parts.raw !== undefined) body = parts.raw;
  else if (parts.body !== undefined) body = JSON.stringify(parts.body);
  const type = parts.contentType === undefined ? (body === undefined ? null : 'application/json') : parts.contentType;
  if (type !== null) headers['Content-Type'] = type;
  return {
    label: `${who.name} ${r.label} ${label}`,
    method: r.def.method,
    path: routePath(r.def, parts.params) + queryString(parts.query),
    headers,
    ...(body === undefined ? {} : { body }),
    ...extra,
    ...(extra.headers ? { headers: { ...headers, ...extra.headers } } : {}),
  };
}

/** Statuses a refused request may have once it has passed authentication. */
const REFUSED = [400, 404, 405, 409, 410, 413, 415, 422, 429];
/** Node's default limit of a request's headers, its request line included (http.maxHeaderSize). */
const HEADER_BYTES_MAX = 16 * 1024;

/** Every case, deterministic for a seed. `who` callers; `tokens` for the forged-token cases. */
function cases(ctx: {
  owner: Who;
  anonymous: Who;
  /** D59: a member whose role sees only the customers assigned to them (none here), fuzzing every org route too. */
  scoped: Who;
  forged: { label: string; value: string | null; expect: number[] }[];
  orgCases: { label: string; headers: Record<string, string>; expect: number[] }[];
}): {
  list: Hostile[];
  acceptedBad: string[];
} {
  const rnd = prng(SEED);
  const pick = <T>(list: readonly T[], n: number): T[] => {
    const copy = [...list];
    const out: T[] = [];
    while (out.length < n && copy.length) out.push(copy.splice(Math.floor(rnd() * copy.length), 1)[0]!);
    return out;
  };
  const list: Hostile[] = [];
  const acceptedBad: string[] = [];
  const callers = [ctx.owner, ctx.anonymous];
  // Anonymous callers of a route that needs a session are refused before their input is read.
  // Public routes may say 401 to anyone (a wrong password, an unknown refresh token, no session to end).
  const expectFor = (r: CatalogRoute, who: Who, refused: readonly number[]) =>
    isPublic(r) ? [...refused, 401] : who.name === 'anonymous' ? [401] : who.name === 'scoped' ? [...refused, 403] : refused;
  // D59: the fields of every org route are fuzzed by the scoped member too (a member's permissions: 403 where they lack one).
  const fuzzers = (r: CatalogRoute) => (r.def.access === 'org' ? [...callers, ctx.scoped] : callers);

  for (const r of CATALOG) {
    const base = baseParts(r);
    const isRead = r.def.method === 'GET';

    // 1. Every field of every route, each refused value in turn.
    for (const f of r.fields) {
      for (const bad of badValues(f)) {
        if (!bad.raw && bad.value !== undefined && !refuses(f, bad.value)) acceptedBad.push(`${r.label} ${f.where}.${f.name} ${bad.label}`);
        const parts = withField(base, f, bad.value, bad.raw);
        // A path that cannot be percent-decoded is refused before anyone is authenticated.
        const undecodable = bad.raw && f.where === 'params' && /%(?![0-9a-f]{2})/i.test(String(bad.value));
        for (const who of fuzzers(r)) list.push(build(r, who, `${f.where}.${f.name} ${bad.label}`, parts, { expect: undecodable ? [400] : expectFor(r, who, REFUSED) }));
      }
    }

    // 2. Hostile text in every text field: often valid, so it reaches the database (reads) or the
    // handler, which must still refuse the request as a whole (catalog.ts mustFail). Raw text
    // (passwords, tokens) takes any character, so it also gets control characters and lone surrogates;
    // every text field gets text exactly at its length limit.
    for (const f of r.fields.filter((f) => f.spec.kind === 'text' || f.spec.kind === 'rawText' || (f.spec.kind === 'list' && f.spec.item.kind === 'text'))) {
      const spec = f.spec.kind === 'list' ? f.spec.item : f.spec;
      const max = spec.kind === 'text' || spec.kind === 'rawText' ? spec.max : 0;
      const atLimit = [`${'x'.repeat(max)}`, 'é'.repeat(max), '😀'.repeat(Math.floor(max / 2))];
      const anyChar = spec.kind === 'rawText' && f.where === 'body' ? ['a\u0000b', '\u0007\u001b[0m', '\ud800', 'a\udfffb', '\r\n\t'] : [];
      for (const s of [...pick(HOSTILE_STRINGS, HOSTILE_PER_FIELD), ...atLimit, ...anyChar]) {
        const value = f.spec.kind === 'list' ? [s] : s;
        const parts = withField(base, f, value);
        const fail = mustFail(r);
        if (fail.kind === 'refused-field' && fail.field.name === f.name) continue; // would not fail
        for (const who of fuzzers(r)) {
          list.push(build(r, who, `${f.where}.${f.name} hostile ${JSON.stringify(s.slice(0, 40))}`, parts, isRead ? {} : { expect: expectFor(r, who, REFUSED) }));
        }
      }
    }

    // 3. Bodies that are not what the route reads.
    for (const who of callers) {
      const expect = expectFor(r, who, REFUSED);
      const add = (label: string, parts: Partial<Parts>, extra: Partial<Hostile> = {}) =>
        list.push(build(r, who, label, { ...base, body: undefined, raw: undefined, contentType: undefined, ...parts }, { expect, ...extra }));
      if (r.def.body) {
        const text = JSON.stringify(base.body);
        for (let i = 0; i < 3; i++) {
          const cut = 1 + Math.floor(rnd() * (text.length - 1));
          add(`truncated at ${cut}`, { raw: text.slice(0, cut) });
        }
        for (const raw of ['', ' ', 'null', '[]', '"text"', '42', 'true', '{', '{"a":', '{"a":1,}', "{'a':1}", '{"a":NaN}', '{a:1}', '\u0000', '}{']) {
          add(`malformed ${JSON.stringify(raw)}`, { raw });
        }
        add('top-level nesting 8,000 deep', { raw: `${'['.repeat(8000)}${']'.repeat(8000)}` });
        add('object nesting 2,000 deep', { raw: text.replace(/^\{/, `{"a":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)},`) });
        add('BOM before the body', { raw: `\uFEFF${text}` });
        add('__proto__ key', { raw: text.replace(/^\{/, '{"__proto__":{"admin":true},') });
        add('bad UTF-8', { raw: Buffer.concat([Buffer.from(text.slice(0, -1)), Buffer.from([0xff, 0xfe, 0x7d])]) });
        add('body past the limit (64 KiB)', { raw: JSON.stringify({ ...(base.body as object), pad: 'x'.repeat(64 * 1024) }) });
        add('chunked', { raw: text }, { chunked: true });
        add('chunked past the limit', { raw: JSON.stringify({ ...(base.body as object), pad: 'x'.repeat(64 * 1024) }) }, { chunked: true });
        add('body far past the limit (2 MiB)', { raw: Buffer.alloc(2 * 1024 * 1024, 0x20) }, { mayReset: true });
        for (const type of [
          null,
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=latin1',
          'text/json',
          'application/jsonx',
          'APPLICATION/XML',
        ]) {
          add(`content-type ${String(type)}`, { raw: text, contentType: type });
        }
      } else if (r.def.textBody) {
        for (const type of [null, 'application/json', 'text/csv; charset=latin1', 'image/png']) add(`content-type ${String(type)}`, { raw: BAD_CSV, contentType: type });
        add('empty file', { raw: '', contentType: 'text/csv' });
        add('unterminated quote', { raw: 'name,email\r\n"abc,x@y.example\r\n', contentType: 'text/csv' });
        // D43: bytes that are not UTF-8 are read as Windows-1252; a UTF-16 BOM with an odd byte at the end cannot be read.
        add('bad UTF-16', { raw: Buffer.from([0xff, 0xfe, 0x6e, 0x00, 0x61, 0x00, 0x0a]), contentType: 'text/csv' });
        add('NUL bytes', { raw: 'email\r\n\u0000\u0000\r\n', contentType: 'text/csv' });
        add('file past the limit', { raw: Buffer.alloc(r.def.textBody.maxBytes + 1, 0x61), contentType: 'text/csv' }, { mayReset: true });
      } else if (r.def.method !== 'GET') {
        for (const raw of ['{}', 'x', '[]', Buffer.alloc(32 * 1024, 0x61)]) {
          add(`stray body of ${raw.length} bytes`, { raw, contentType: 'application/json' });
          add(`stray chunked body of ${raw.length} bytes`, { raw, contentType: 'application/json' }, { chunked: true });
        }
      }
    }

    // 4. Forged, tampered and expired access tokens, to every route (a public one may still read the
    // token: accepting an invitation signed in); 5. malformed and foreign organizations, to every route
    // that reads X-Organization-ID (`me` too, which answers for the organization it names).
    for (const t of ctx.forged) {
      const headers = { ...ctx.owner.headers };
      if (t.value === null) delete headers.Authorization;
      else headers.Authorization = t.value;
      list.push(
        build(
          r,
          { name: 'owner', headers },
          `token ${t.label}`,
          base,
          isPublic(r) ? (r.def.method === 'GET' ? {} : { expect: [...REFUSED, 401] }) : { expect: t.expect },
        ),
      );
    }
    if (r.def.access === 'org' || r.def.access === 'token') {
      for (const o of ctx.orgCases)
        list.push(build(r, { name: 'owner', headers: { ...ctx.owner.headers, ...o.headers } }, `organization ${o.label}`, base, { expect: o.expect }));
    }
  }

  // 6. Methods and path spellings, once per path.
  const byPath = new Map<string, CatalogRoute[]>();
  for (const r of CATALOG) byPath.set(r.def.path, [...(byPath.get(r.def.path) ?? []), r]);
  for (const [, routes] of byPath) {
    const r = routes[0]!;
    const declared = new Set<string>(routes.map((x) => x.def.method));
    const base = baseParts(r);
    for (const who of callers) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'PROPFIND', 'MKCOL', 'LINK']) {
        if (declared.has(method)) continue;
        list.push({ ...build(r, who, `method ${method}`, base), method, expect: [400, 405] });
      }
      list.push({ ...build(r, who, 'method OPTIONS', base), method: 'OPTIONS', expect: [204] });
      const path = routePath(r.def, base.params);
      const rest = path.slice(API.length);
      const spellings: [string, string][] = [
        ['no trailing slash', path.replace(/\/$/, '')],
        ['double slash', path.replace('/v1/', '/v1//')],
        ['leading double slash', `/${path}`],
        ['trailing double slash', `${path}/`],
        ['extra segment', `${path}x/`],
        ['dot segment', path.replace('/v1/', '/v1/./')],
        ['dot-dot segment', path.replace('/v1/', '/v1/x/../')],
        ['encoded dot-dot', path.replace('/v1/', '/v1/%2e%2e/')],
        ['encoded slash', path.replace(/\/$/, '%2F')],
        ['encoded letter', path.replace('/v1/', '/%761/')],
        ['upper case', path.toUpperCase()],
        ['matrix parameter', path.replace(/\/$/, ';jsessionid=1/')],
        ['encoded NUL', `${path}%00`],
        ['bad escape', `${path}%`],
        ['backslash', path.replace('/v1/', '/v1\\')],
        ['outside the base', `/apix${rest}`],
      ];
      for (const [label, p] of spellings) {
        const h = build(r, who, `path ${label}`, base);
        list.push({ ...h, path: p + queryString(base.query), ...(r.def.method === 'GET' ? { expect: undefined } : {}) });
      }
      // The same route reached by a well-formed but unusual target: still its input checks.
      list.push({
        ...build(r, who, 'absolute-form target', base),
        path: `http://127.0.0.1${path}`,
        expect: r.def.method === 'GET' ? undefined : expectFor(r, who, REFUSED),
      });
      list.push({
        ...build(r, who, 'repeated query parameter', base),
        path: `${path}?page=1&page=2&page_size=x`,
        expect: r.def.method === 'GET' ? undefined : expectFor(r, who, REFUSED),
      });
    }
  }
  // A guest's call to a route that needs a session is refused before its input is read: the same 401
  // whatever the input, so a sample of those is enough (the path and method cases are all kept).
  const sampled = list.filter((h) => !(h.label.startsWith('anonymous') && h.expect?.length === 1 && h.expect[0] === 401) || rnd() < ANONYMOUS_401_SAMPLE);
  return { list: sampled, acceptedBad };
}

/** The base parts with one field set to `value` (undefined removes it). */
function withField(base: Parts, f: Field, value: unknown, raw = false): Parts {
  if (f.where === 'params') return { ...base, params: { ...base.params, [f.name]: encode(value, raw) } };
  if (f.where === 'query') {
    const query = { ...base.query };
    if (value === undefined) delete query[f.name];
    else query[f.name] = encode(value, raw);
    return { ...base, query };
  }
  const body = { ...(base.body as Record<string, unknown>) };
  if (value === undefined) delete body[f.name];
  else body[f.name] = value;
  return { ...base, body };
}

/**
 * Requests HTTP itself gets wrong, written byte by byte to a socket (node:http would refuse to send
 * them): no Host, conflicting or bad lengths, bad chunking, a bad Expect, a request line too long,
 * junk in a header. Each says Connection: close where it can, so the answer ends the exchange.
 */
function transportCases(auth: Record<string, string>): { label: string; data: string; expect: number[] }[] {
  const headers = Object.entries(auth)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const json = (path: string, extra: string, body: string, method = 'POST') =>
    `${method} ${API}${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}Content-Type: application/json\r\n${extra}\r\n${body}`;
  // A change that takes no body and no params: a body sent to it must be refused however it is framed.
  const bodiless = CATALOG.find((r) => mustFail(r).kind === 'stray-body' && !r.fields.length);
  return [
    ...(bodiless
      ? [
          {
            label: `chunked body to ${bodiless.label}`,
            data: json(bodiless.def.path, 'Transfer-Encoding: chunked\r\n', '2\r\n{}\r\n0\r\n\r\n', bodiless.def.method),
            expect: [400],
          },
        ]
      : []),
    { label: 'HTTP/1.1 without Host', data: `GET ${API}/health/ HTTP/1.1\r\nConnection: close\r\n\r\n`, expect: [400] },
    { label: 'request line of junk', data: 'HELLO\r\n\r\n', expect: [400] },
    { label: 'unknown HTTP version', data: `GET ${API}/health/ HTTP/9.9\r\nHost: x\r\n\r\n`, expect: [400, 505] },
    { label: 'Content-Length and Transfer-Encoding', data: json('/v1/customers/', 'Content-Length: 4\r\nTransfer-Encoding: chunked\r\n', '0\r\n\r\n'), expect: [400] },
    { label: 'negative Content-Length', data: json('/v1/customers/', 'Content-Length: -1\r\n', ''), expect: [400] },
    { label: 'Content-Length of letters', data: json('/v1/customers/', 'Content-Length: ab\r\n', ''), expect: [400] },
    { label: 'two Content-Lengths', data: json('/v1/customers/', 'Content-Length: 2\r\nContent-Length: 3\r\n', '{}x'), expect: [400] },
    { label: 'bad chunk size', data: json('/v1/customers/', 'Transfer-Encoding: chunked\r\n', 'zz\r\n{}\r\n0\r\n\r\n'), expect: [400] },
    { label: 'chunked body that is not JSON', data: json('/v1/customers/', 'Transfer-Encoding: chunked\r\n', '3\r\n{"a\r\n0\r\n\r\n'), expect: [400] },
    { label: 'declared length far past the limit', data: json('/v1/customers/', 'Content-Length: 99999999999\r\n', '{}'), expect: [413] },
    { label: 'Expect other than 100-continue', data: json('/v1/customers/', 'Content-Length: 2\r\nExpect: bogus\r\n', '{}'), expect: [417] },
    { label: 'control character in a header', data: `GET ${API}/v1/auth/me/ HTTP/1.1\r\nHost: x\r\nX-Junk: a\u0001b\r\nConnection: close\r\n\r\n`, expect: [400] },
    { label: 'request line of 20 KiB', data: `GET ${API}/v1/customers/?q=${'x'.repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`, expect: [431, 414, 400] },
    { label: 'header without a colon', data: `GET ${API}/health/ HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n`, expect: [400] },
  ];
}

/** Status, content type and body of the first answer in raw HTTP text. */
function parseRaw(raw: string): Answer {
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(raw);
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const type = /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1];
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
  const body = rest.join('\r\n\r\n');
  return m
    ? { status: Number(m[1]), headers: { 'content-type': type }, text: Number.isFinite(length) ? body.slice(0, length) : body }
    : { status: 0, headers: {}, text: raw, error: 'no HTTP answer' };
}

function histogram(answers: Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const key = a.error ? 'no answer' : String(a.status);
    out[key] = (out[key] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(out).sort());
}

test('every field of every route describes what it accepts (server/schema.ts specOf)', () => {
  expect(CATALOG.flatMap((r) => r.undescribed)).toEqual([]);
  expect(CATALOG.length).toBeGreaterThan(20);
});

forEachBackend(
  'Hostile input',
  (backend, label) => {
    let b: Backend;
    let agent: Agent;
    const secrets: Secret[] = [];
    /** Error answers of the two-step journey, for the secrets check. */
    const journeyBodies: string[] = [];
    let owner: Tokens;
    let scoped: Tokens;
    let ownerOrg: number;

    beforeAll(async () => {
      b = backend();
      agent = makeAgent();
      // An organization the owner is not in, with a customer, for the foreign-organization cases.
      await b.server.db.query('insert into organizations (name) values ($1)', [FOREIGN]);
      const outsider = await createUser(b.server.db, { memberships: [[FOREIGN, 'owner']] });
      secrets.push({ label: 'outsider password', value: outsider.password });
      // D54: the outsider enrols in two-step sign-in, signs in with it and turns it off (mfa-journey.ts).
      const call: V1Call = async (method, path, { token, body }) => {
        const headers = { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
        const r = await b.api.request(`${API}/v1${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
        if (r.status >= 400) journeyBodies.push(r.text);
        return r;
      };
      const outsiderToken = tokens(await b.api.login(outsider.email, outsider.password)).access_token;
      secrets.push(...(await mfaJourney(call, { ...outsider, token: outsiderToken }, b.clock.now)));
      owner = tokens(await b.api.login('owner@demo.test'));
      ownerOrg = await orgId(b.server.db, ACME);
      // D59: Acme's member role narrowed to the customers assigned to the person, and a member of it.
      const asOwner = { Authorization: `Bearer ${owner.access_token}`, 'X-Organization-ID': String(ownerOrg), 'Content-Type': 'application/json' };
      const { matrix } = (await b.api.request(`${API}/v1/permissions/`, { headers: asOwner })).body as { matrix: unknown };
      const narrowed = await b.api.request(`${API}/v1/permissions/`, {
        method: 'PUT',
        headers: asOwner,
        body: JSON.stringify({ matrix, scopes: { member: 'assigned' } }),
      });
      expect(narrowed.status, narrowed.text).toBe(200);
      const member = await createUser(b.server.db, { memberships: [[ACME, 'member']] });
      secrets.push({ label: 'scoped member password', value: member.password });
      scoped = tokens(await b.api.login(member.email, member.password));
      secrets.push({ label: 'scoped access token', value: scoped.access_token }, { label: 'scoped refresh token', value: scoped.refresh_token });
    });
    afterAll(() => agent?.destroy());

    test(
      `at least ${MIN_REQUESTS} hostile requests: no 5xx, errors in JSON, data unchanged, no secret leaked`,
      async () => {
        const db = b.server.db;
        const started = Date.now();
        const jwtSecret = await jwtSecretOf(b.server);
        const signIn = async (email: string) => tokens(await b.api.login(email, DEMO_PASSWORD));
        const [solo, viewer, nobody] = [await signIn('solo@demo.test'), await signIn('viewer@demo.test'), await signIn('nobody@demo.test')];
        for (const [who, t] of Object.entries({ owner, solo, viewer, nobody })) {
          secrets.push({ label: `${who} access token`, value: t.access_token }, { label: `${who} refresh token`, value: t.refresh_token });
        }
        secrets.push({ label: 'password sent by the suite', value: SUITE_PASSWORD });
        const beacon = await orgId(db, BEACON);
        const foreign = await orgId(db, FOREIGN);
        const claims = decodeJwt(owner.access_token).payload as { sub: string; sid: number; iat: number; exp: number };
        const [soloUser] = await db.query<{ id: unknown }>("select id from users where email = 'solo@demo.test'");
        const [sig = ''] = owner.access_token.split('.').slice(2);
        const [h = '', p = ''] = owner.access_token.split('.');
        const flip = (s: string) => s.slice(0, -2) + (s.at(-2) === 'A' ? 'B' : 'A') + s.at(-1);
        const forged = [
          { label: 'none', value: null, expect: [401] },
          { label: 'empty Bearer', value: 'Bearer', expect: [401] },
          { label: 'Basic', value: `Basic ${Buffer.from(`owner@demo.test:${DEMO_PASSWORD}`).toString('base64')}`, expect: [401] },
          { label: 'not a JWT', value: 'Bearer not-a-jwt', expect: [401] },
          { label: 'tampered signature', value: `Bearer ${h}.${p}.${flip(sig)}`, expect: [401] },
          {
            label: 'tampered payload',
            value: `Bearer ${h}.${Buffer.from(JSON.stringify({ ...claims, sub: String(soloUser?.id) })).toString('base64url')}.${sig}`,
            expect: [401],
          },
          {
            label: 'expired',
            value: `Bearer ${forgeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: claims.iat - 7200, exp: claims.iat - 3600 }, jwtSecret)}`,
            expect: [401],
          },
          { label: 'alg none', value: `Bearer ${forgeJwt({ alg: 'none', typ: 'JWT' }, claims, null)}`, expect: [401] },
          { label: 'alg none with a dot', value: `Bearer ${forgeJwt({ alg: 'none', typ: 'JWT' }, claims, null)}.`, expect: [401] },
          { label: 'wrong key', value: `Bearer ${forgeJwt({ alg: 'HS256', typ: 'JWT' }, claims, 'not-the-secret-not-the-secret-not-the-secret')}`, expect: [401] },
          { label: 'HS512 header', value: `Bearer ${forgeJwt({ alg: 'HS512', typ: 'JWT' }, claims, jwtSecret)}`, expect: [401] },
          { label: 'no such session', value: `Bearer ${forgeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, sid: 2_000_000_000 }, jwtSecret)}`, expect: [401] },
          {
            label: "another user's session",
            value: `Bearer ${forgeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, sub: String(soloUser?.id) }, jwtSecret)}`,
            expect: [401],
          },
          { label: 'huge sub', value: `Bearer ${forgeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, sub: '99999999999' }, jwtSecret)}`, expect: [401] },
          { label: 'sid as text', value: `Bearer ${forgeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, sid: String(claims.sid) }, jwtSecret)}`, expect: [401] },
          { label: '5,000 characters', value: `Bearer ${'a'.repeat(5000)}`, expect: [401] },
          { label: 'refresh token as access token', value: `Bearer ${owner.refresh_token}`, expect: [401] },
        ];
        const orgCases: { label: string; headers: Record<string, string>; expect: number[] }[] = [
          ...['', 'abc', '-1', '0', '1.5', '99999999999', '2147483648', '1,2', '0x1', '\u00b9', "1' or '1'='1"].map((v) => ({
            label: `header ${JSON.stringify(v)}`,
            headers: { 'X-Organization-ID': v },
            expect: [400],
          })),
          { label: 'foreign', headers: { 'X-Organization-ID': String(foreign) }, expect: [403] },
          { label: 'nonexistent', headers: { 'X-Organization-ID': '2147483647' }, expect: [403] },
          { label: 'viewer token in Acme', headers: { Authorization: `Bearer ${viewer.access_token}` }, expect: [403] },
          { label: 'solo token in Beacon', headers: { Authorization: `Bearer ${solo.access_token}`, 'X-Organization-ID': String(beacon) }, expect: [403] },
          { label: 'nobody token in Acme', headers: { Authorization: `Bearer ${nobody.access_token}` }, expect: [403] },
        ];
        const { list, acceptedBad } = cases({
          owner: { name: 'owner', headers: { Authorization: `Bearer ${owner.access_token}`, 'X-Organization-ID': String(ownerOrg) } },
          anonymous: { name: 'anonymous', headers: {} },
          scoped: { name: 'scoped', headers: { Authorization: `Bearer ${scoped.access_token}`, 'X-Organization-ID': String(ownerOrg) } },
          forged,
          orgCases,
        });
        expect(list.length).toBeLessThanOrEqual(MAX_REQUESTS);

        // D52: a session's first call writes its last activity (then at most once a minute; this clock stands
        // still), so each session the cases use makes one before the digest.
        for (const t of [owner, solo, viewer, nobody, scoped]) expect((await b.api.me(t.access_token)).status).toBe(200);
        // D53: a reset link in play, looked up and refused a short password (both logged), so the checks
        // below look for its token too.
        const reset = await b.api.request(`${API}/v1/team/members/${String(soloUser?.id)}/reset-link/`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${owner.access_token}`, 'X-Organization-ID': String(ownerOrg) },
        });
        expect(reset.status, reset.text).toBe(201);
        const resetToken = reset.body.token as string;
        secrets.push({ label: 'reset link token', value: resetToken });
        expect((await b.api.get(`${API}/v1/password-resets/${resetToken}/`)).status).toBe(200);
        expect((await b.api.post(`${API}/v1/password-resets/${resetToken}/`, { password: 'short' })).status).toBe(400);

        const before = await digest(db, DIGEST_EXCLUDES);
        const auditBefore = (await auditRows(db)).length;
        const answers = await pooled(
          list.map((h) => () => send(b.server.port, agent, h)),
          WIDTH,
        );
        for (const t of transportCases({ Authorization: `Bearer ${owner.access_token}`, 'X-Organization-ID': String(ownerOrg) })) {
          list.push({ label: `transport ${t.label}`, method: t.data.split(' ', 1)[0] ?? '?', path: '(raw)', headers: {}, expect: t.expect });
          answers.push(parseRaw(await rawRequest(b.server.port, t.data, 3000)));
        }
        const after = await digest(db, DIGEST_EXCLUDES);

        const fivexx: string[] = [];
        const shapes: string[] = [];
        const unexpected: string[] = [];
        const unanswered: string[] = [];
        const bodies: string[] = [];
        list.forEach((h, i) => {
          const a = answers[i]!;
          const what = `${h.method} ${h.path.slice(0, 90)} [${h.label.slice(0, 110)}]`;
          if (a.error) {
            if (!h.mayReset) unanswered.push(`${what}: ${a.error}`);
            return;
          }
          if (a.status >= 400) bodies.push(a.text);
          if (a.status >= 500) fivexx.push(`${what}: ${a.status} ${a.text.slice(0, 160)}`);
          const shape = errorShapeProblem(a, h.method);
          if (shape) shapes.push(`${what}: ${a.status} ${shape} ${a.text.slice(0, 80)}`);
          // A request line longer than the server reads (Node's 16 KiB of headers) is refused before any check: 431, as a transport case.
          if (a.status === 431 && Buffer.byteLength(h.path) > HEADER_BYTES_MAX) return;
          const allowed = h.expect ?? (h.method === 'GET' ? null : 'client error');
          if (allowed === 'client error' ? a.status < 400 || a.status >= 500 : allowed && !allowed.includes(a.status)) {
            unexpected.push(`${what}: ${a.status} (expected ${String(allowed)}) ${a.text.slice(0, 120)}`);
          }
        });
        const health = await send(b.server.port, agent, { method: 'GET', path: `${API}/health/`, headers: {} });

        console.log(
          `[hostile input ${label}] ${list.length} requests (${list.filter((h) => h.headers.Authorization).length} with a token) in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
            `statuses ${JSON.stringify(histogram(answers))}; 5xx ${fivexx.length}; error bodies not {detail, code} ${shapes.length}; ` +
            `unexpected statuses ${unexpected.length}; unanswered ${unanswered.length}; tables changed ${changedTables(before, after).length} of ${Object.keys(before).length}; ` +
            `refused values a check let through ${acceptedBad.length}`,
        );
        expect(list.length).toBeGreaterThanOrEqual(MIN_REQUESTS);
        expect(fivexx, fivexx.slice(0, 10).join('\n')).toEqual([]);
        expect(shapes, shapes.slice(0, 10).join('\n')).toEqual([]);
        expect(unexpected, unexpected.slice(0, 15).join('\n')).toEqual([]);
        expect(unanswered, unanswered.slice(0, 10).join('\n')).toEqual([]);
        expect(acceptedBad, `values the generator calls refused that a check accepts:\n${acceptedBad.join('\n')}`).toEqual([]);
        expect([health.status, health.text]).toEqual([200, '{"status":"ok"}']);
        expect(changedTables(before, after), 'tables changed by requests that all had to fail').toEqual([]);
        const audit = await auditRows(db);
        expect(audit.length).toBe(auditBefore);

        // Secrets: none in the log, in an error answer or in the activity log.
        assertNoSecrets({ logs: b.server.logs, bodies: [...bodies, ...journeyBodies], auditRows: audit, secrets: [...secrets, ...(await serverSecrets(db, jwtSecret))] });
      },
      RUN_TIMEOUT_MS,
    );
  },
  { env: { ...SUITE_ENV } },
);
