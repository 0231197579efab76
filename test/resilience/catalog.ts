// The API's route table read as a specification (server/app.ts API_ROUTES, each field's check telling
// what it accepts: server/schema.ts specOf), and what the resilience suites build from it: values a
// field must refuse, values it takes, and a request to every route that must fail. A new route or
// field is covered without editing the suites; a field whose check does not describe itself fails them.
import { API_ROUTES } from '../../server/app';
import type { RouteDef } from '../../server/route';
import { MAX_INT4, specOf, type Check, type FieldSpec, type Shape } from '../../server/schema';

export type Where = 'params' | 'query' | 'body';

export interface Field {
  name: string;
  where: Where;
  spec: FieldSpec;
  check: Check<unknown>;
}

export interface CatalogRoute {
  def: RouteDef;
  /** `GET /v1/customers/:id/`, for reports. */
  label: string;
  fields: Field[];
  /** Fields whose check does not describe itself (the suites fail on any). */
  undescribed: string[];
}

/** The API base the suites' servers use (SUITE_ENV sets none). */
export const API = '/api';

function fieldsOf(route: RouteDef, where: Where, shape: Shape | undefined, undescribed: string[]): Field[] {
  return Object.entries(shape ?? {}).flatMap(([name, check]) => {
    const spec = specOf(check as Check<unknown>);
    if (!spec) {
      undescribed.push(`${route.method} ${route.path} ${where}.${name}`);
      return [];
    }
    return [{ name, where, spec, check: check as Check<unknown> }];
  });
}

export const CATALOG: readonly CatalogRoute[] = API_ROUTES.map((def) => {
  const undescribed: string[] = [];
  const fields = [
    ...fieldsOf(def, 'params', def.params, undescribed),
    ...fieldsOf(def, 'query', def.query, undescribed),
    ...fieldsOf(def, 'body', def.body, undescribed),
  ];
  return { def, label: `${def.method} ${def.path}`, fields, undescribed };
});

/** Mulberry32 (the demo seed's), so every run sends the same requests. */
export { random as prng } from '../../server/seed-data';

const passes = (field: Field, value: unknown) => {
  try {
    field.check(value, field.name);
    return true;
  } catch {
    return false;
  }
};

/** Text that may well be valid: SQL injection, markup, format strings, odd but well-formed Unicode. */
export const HOSTILE_STRINGS: readonly string[] = [
  "' OR '1'='1",
  "'; drop table customers; --",
  '" or ""="',
  '1; select pg_sleep(5); --',
  "x' union select password_hash from users --",
  "Robert'); DROP TABLE users;--",
  '\\',
  "\\'",
  '$1',
  '%',
  '_',
  '%%',
  '%s%s%n',
  '{{7*7}}',
  '${7*7}',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '../../etc/passwd',
  '\u202eevil\u202c',
  'zero\u200bwidth',
  '😀👍🏽',
  'e\u0301\u0301\u0301',
  'NULL',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '[]',
  '{}',
  'a@b@c',
  ' leading and trailing ',
  '\uFEFFbom',
  'ＡＢＣ',
];

/** Text no field takes: control characters (tab and line breaks excepted for multi-line fields) and lone surrogates. */
const CONTROL = ['a\u0000b', '\u0007bell', 'esc\u001b[31m', 'del\u007f', 'x\u0008y'];
const LONE = ['\ud800', 'a\udfffb', 'end\udbff'];

/** Candidates for a value a field takes; the field's own check picks the first it accepts. */
const TEXT_CANDIDATES = ['Hostile Test', 'hostile.test@example.test', 'customer.created', 'customer', 'ZzHostileToken0000000000000000000000', 'x', '555 0100 1234'];

/** What raw text fields (passwords, tokens) are given: a password the suites then look for in logs and bodies. */
export const SUITE_PASSWORD = 'Hostile-Password-7f3k2q';

/** A value the field accepts (checked with the field's own check), or undefined when none is known. */
export function validValue(field: Field): unknown {
  const s = field.spec;
  const candidates: unknown[] =
    s.kind === 'int'
      ? [s.min]
      : s.kind === 'intText'
        ? [String(s.min)]
        : s.kind === 'rawText'
          ? [SUITE_PASSWORD, ...TEXT_CANDIDATES]
          : s.kind === 'text'
            ? TEXT_CANDIDATES
            : s.kind === 'bool'
              ? [true]
              : s.kind === 'oneOf'
                ? [...s.values]
                : s.kind === 'list'
                  ? [[]]
                  : [{}];
  return candidates.find((v) => passes(field, v));
}

/**
 * An id-like value the field takes that names nothing: the largest integer, or a well-formed token
 * no invitation has. A route given it must answer 404 whoever calls it.
 */
export function absentValue(field: Field): string {
  if (field.spec.kind === 'intText') return String(Math.min(field.spec.max, MAX_INT4));
  const v = validValue(field);
  return typeof v === 'string' ? v : 'x';
}

const tooLong = (max: number, ch = 'x') => ch.repeat(max + 1);

/**
 * Values the field must refuse, each with a label. Body fields get JSON values; params and query
 * values are text (URL-encoded by the sender; `raw` ones are sent as written).
 */
export function badValues(field: Field): { label: string; value: unknown; raw?: boolean }[] {
  const s = field.spec;
  const inText = field.where !== 'body';
  const out: { label: string; value: unknown; raw?: boolean }[] = [];
  const add = (label: string, value: unknown, raw = false) => out.push({ label, value, ...(raw ? { raw } : {}) });
  if (!inText) {
    // Wrong JSON types, whatever the field.
    if (s.kind !== 'int') add('number', 7);
    if (s.kind !== 'bool') add('boolean', true);
    if (s.kind !== 'list') add('array', ['x']);
    if (s.kind !== 'object') add('object', { $gt: '' });
    add('nested', JSON.parse(`${'['.repeat(200)}${']'.repeat(200)}`));
    if (s.required) add('null', null);
  }
  if (s.required && field.where !== 'params') add('absent', undefined);
  switch (s.kind) {
    case 'int':
      add('string number', String(s.min));
      add('fraction', s.min + 0.5);
      add('below min', s.min - 1);
      add('above max', s.max + 1);
      add('huge', 1e308);
      add('unsafe integer', 9007199254740993);
      add('negative', -Math.abs(s.max));
      break;
    case 'intText':
      for (const v of ['', '-1', '1.5', '1e3', ' 1', '+1', '0x1', 'abc', '99999999999999999', '١', 'NaN', 'Infinity', "1' or '1'='1", '1;drop table customers']) {
        // An empty segment is another path (the path cases send it); an empty optional query value is absent.
        if (v === '' && (field.where === 'params' || !s.required)) continue;
        add(`text ${JSON.stringify(v)}`, v);
      }
      if (s.min > 0) add('below min', String(s.min - 1));
      add('above max', String(s.max + 1));
      add('percent NUL', '%00', true);
      add('bad percent', '%zz', true);
      break;
    case 'text': {
      add('too long', tooLong(s.max));
      add('too long, 2-byte', tooLong(s.max, 'é'));
      for (const c of CONTROL) add(`control ${JSON.stringify(c)}`, c);
      if (!s.multiline) add('line break', 'a\nb');
      for (const l of LONE) if (!inText) add(`lone surrogate ${JSON.stringify(l)}`, l);
      // In a query, bytes that are not UTF-8 are read as U+FFFD (URLSearchParams): text, not an error.
      if (field.where === 'params') add('lone surrogate as CESU-8', '%ED%A0%80', true);
      if (s.required) add('blank', '   ');
      if (s.pattern) for (const v of HOSTILE_STRINGS) if (!s.pattern.test(v.trim())) add(`not in form ${JSON.stringify(v)}`, v);
      break;
    }
    case 'rawText':
      add('too long', tooLong(s.max));
      if (!inText && s.required) add('empty', '');
      break;
    case 'bool':
      add('string', 'true');
      add('one', 1);
      break;
    case 'oneOf':
      add('unknown', 'no-such-value');
      add('upper case', (s.values[0] ?? '').toUpperCase() + 'X');
      add('padded', ` ${s.values[0] ?? ''} `);
      add('SQL', "' OR '1'='1");
      if (!inText) add('number', 1);
      break;
    case 'list': {
      add('string', 'x');
      add(
        'too many',
        Array.from({ length: s.max + 1 }, (_, i) => `item${i}`),
      );
      const item: Field = { name: `${field.name}[0]`, where: field.where, spec: s.item, check: () => undefined };
      for (const bad of badValues(item).slice(0, 8)) if (bad.value !== undefined) add(`item ${bad.label}`, [bad.value]);
      break;
    }
    case 'object':
      add('array', []);
      add('string', 'x');
      add('unknown key', { 'no-such-key': [] });
      if (s.values === 'text') {
        for (const key of s.keys) add(`key ${key} not text`, { [key]: ['x'] });
        for (const key of s.keys) add(`key ${key} control character`, { [key]: 'a\u0000b' });
      } else {
        for (const key of s.keys) add(`key ${key} not a list`, { [key]: 'x' });
        for (const key of s.keys) add(`key ${key} unknown item`, { [key]: ["' OR '1'='1"] });
      }
      break;
  }
  return out;
}

/** A value of the field's kind that fails its check: the first refused bad value (for must-fail requests). */
export function refusedValue(field: Field): unknown {
  return badValues(field).find((b) => !b.raw && b.value !== undefined && !passes(field, b.value))?.value ?? { refused: true };
}

/** Whether the field's own check refuses the value (the suite reports bad values a check lets through). */
export const refuses = (field: Field, value: unknown) => !passes(field, value);

/** Percent-encodes a path segment or query value; raw values are sent as written. */
export const encode = (value: unknown, raw = false) => (raw ? String(value) : encodeURIComponent(String(value)));

/** The route's path under the API with these param values (already encoded). */
export function routePath(def: RouteDef, params: Record<string, string>): string {
  return API + def.path.replace(/:([a-z_]+)/g, (_, name: string) => params[name] ?? 'x');
}

/** The route's `:params`, each with the path up to and including it (what says where its ids come from). */
export function pathParams(def: RouteDef): { name: string; key: string }[] {
  const segments = def.path.split('/');
  return segments.flatMap((s, i) => (s.startsWith(':') ? [{ name: s.slice(1), key: segments.slice(0, i + 1).join('/') }] : []));
}

/** A query string from encoded values ('' when none). */
export function queryString(values: Record<string, string>): string {
  const parts = Object.entries(values).map(([k, v]) => `${encodeURIComponent(k)}=${v}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The route's params (as encoded text) that name nothing: the request answers 404 once its input is checked. */
export function absentParams(route: CatalogRoute): Record<string, string> {
  return Object.fromEntries(route.fields.filter((f) => f.where === 'params').map((f) => [f.name, encode(absentValue(f))]));
}

/** Valid values of the route's query parameters (as encoded text). */
export function validQuery(route: CatalogRoute): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of route.fields.filter((f) => f.where === 'query' && f.spec.required)) {
    const v = validValue(f);
    if (v !== undefined) out[f.name] = encode(v);
  }
  return out;
}

/** A body of values the route's fields take (those without a known value are left out). */
export function validBody(route: CatalogRoute): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of route.fields.filter((f) => f.where === 'body')) {
    const v = validValue(f);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

/**
 * What makes any request to the route fail whoever sends it, so hostile requests change nothing:
 * - a route with params: params that name nothing (404 once everything else is checked);
 * - else a JSON body: its last field refused (every other field is still checked first);
 * - else a CSV body: a file whose header has no name column (400 invalid_csv);
 * - else a change (POST, PUT, PATCH, DELETE): a body it does not take (400 unexpected_body);
 * - a read (GET) changes nothing and needs none.
 */
export type MustFail = { kind: 'absent-params' } | { kind: 'refused-field'; field: Field } | { kind: 'bad-csv' } | { kind: 'stray-body' } | { kind: 'read' };

export function mustFail(route: CatalogRoute): MustFail {
  if (route.fields.some((f) => f.where === 'params')) return { kind: 'absent-params' };
  const body = route.fields.filter((f) => f.where === 'body');
  const last = body[body.length - 1];
  if (last) return { kind: 'refused-field', field: last };
  if (route.def.textBody) return { kind: 'bad-csv' };
  if (route.def.method !== 'GET') return { kind: 'stray-body' };
  return { kind: 'read' };
}

/** A CSV no import takes: the header names no `name` column; the values are hostile text. */
export const BAD_CSV = `email,city\r\n"' OR '1'='1@example.test","'; drop table customers; --"\r\n`;
