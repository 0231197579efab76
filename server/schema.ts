// D19: small input checks that routes declare for their params, query and body. Each check takes the
// raw value and the field's name and returns the parsed value or throws a 400 naming the field.
// Params and query values arrive as text (or undefined); body values as parsed JSON.
import { CONTROL_CHARS, DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../contract/customers';
import { fieldError } from './http';

export type Check<T> = (value: unknown, field: string) => T;
// `any`, not `unknown`: an inline check such as withDefault(bool(), true) would otherwise infer its T from this.
// biome-ignore lint/suspicious/noExplicitAny: see the line above
export type Shape = Record<string, Check<any>>;
export type Parsed<S extends Shape> = { [K in keyof S]: S[K] extends Check<infer T> ? T : never };

/** PostgreSQL integer columns: ids beyond this cannot exist, so they are refused before any query. */
export const MAX_INT4 = 2_147_483_647;

/**
 * What a check accepts, told by the check itself so the route table can be read as a specification
 * (the hostile-input suite generates its requests from it). `required` is false when absence is fine.
 */
export type FieldSpec = { required: boolean } & (
  | { kind: 'int' | 'intText'; min: number; max: number }
  | { kind: 'text'; min: number; max: number; multiline: boolean; pattern: RegExp | null }
  | { kind: 'rawText'; max: number }
  | { kind: 'bool' }
  | { kind: 'oneOf'; values: readonly string[] }
  | { kind: 'list'; max: number; item: FieldSpec }
  /** A JSON object of its own form; `keys` are the ones it knows, with lists (the permission matrix) or texts (`values`) as values. */
  | { kind: 'object'; keys: readonly string[]; values?: 'text' }
);
type SpecInput = FieldSpec extends infer S ? (S extends FieldSpec ? Omit<S, 'required'> & { required?: boolean } : never) : never;

const SPEC = Symbol('field spec');

/** Attaches what `check` accepts (required unless told); returns the same check. */
export function describeCheck<C extends Check<unknown>>(check: C, spec: SpecInput): C {
  return Object.assign(check, { [SPEC]: { required: true, ...spec } as FieldSpec });
}

/** What a check accepts, or null for one that does not say (the hostile-input suite fails on those). */
export const specOf = (check: Check<unknown>): FieldSpec | null => (check as { [SPEC]?: FieldSpec })[SPEC] ?? null;

const relaxed = <T>(check: Check<T>, inner: Check<unknown>): Check<T> => {
  const spec = specOf(inner);
  return spec ? describeCheck(check, { ...spec, required: false } as SpecInput) : check;
};

const missing = (value: unknown) => value === undefined || value === null || value === '';

/** An integer given as a JSON number. */
export function int({ min = 1, max = MAX_INT4 }: { min?: number; max?: number } = {}): Check<number> {
  return describeCheck(
    (value, field) => {
      if (missing(value)) throw fieldError(field, 'is required', 'missing_field');
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
        throw fieldError(field, `must be an integer from ${min} to ${max}`);
      }
      return value;
    },
    { kind: 'int', min, max },
  );
}

/** An integer written in a path or query string: digits only, no sign, no spaces. */
export function intText({ min = 1, max = MAX_INT4 }: { min?: number; max?: number } = {}): Check<number> {
  return describeCheck(
    (value, field) => {
      if (value === undefined || value === null) throw fieldError(field, 'is required', 'missing_field');
      const n = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : NaN;
      if (!(n >= min && n <= max)) throw fieldError(field, `must be an integer from ${min} to ${max}`);
      return n;
    },
    { kind: 'intText', min, max },
  );
}

interface TextOptions {
  max: number;
  min?: number;
  /** Trim surrounding white space before the checks (D22: every text field is trimmed). */
  trim?: boolean;
  /** Allow tabs and line breaks (notes); other control characters are always refused. */
  multiline?: boolean;
  /** Refused unless the (trimmed) text matches. */
  pattern?: RegExp;
  patternMessage?: string;
}

const MULTILINE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Half of a UTF-16 surrogate pair without its other half: not text, and PostgreSQL's jsonb refuses it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Required text. Control characters are refused (PostgreSQL text cannot even hold NUL). */
export function text(opts: TextOptions): Check<string> {
  const { max, min = 1, trim = true, multiline = false } = opts;
  return describeCheck(
    (value, field) => {
      if (value === undefined || value === null) throw fieldError(field, 'is required', 'missing_field');
      if (typeof value !== 'string') throw fieldError(field, 'must be a string');
      const s = trim ? value.trim() : value;
      if (s.length === 0 && min > 0) throw fieldError(field, 'is required', 'missing_field');
      if ((multiline ? MULTILINE_CONTROL : CONTROL_CHARS).test(s)) throw fieldError(field, 'must not contain control characters');
      if (LONE_SURROGATE.test(s)) throw fieldError(field, 'is not valid Unicode text');
      if (s.length < min) throw fieldError(field, `must be at least ${min} characters`);
      if (s.length > max) throw fieldError(field, `must be at most ${max} characters`);
      if (opts.pattern && !opts.pattern.test(s)) throw fieldError(field, opts.patternMessage ?? 'is not in the expected form');
      return s;
    },
    { kind: 'text', min, max, multiline, pattern: opts.pattern ?? null },
  );
}

/** Absent, null or empty (after trimming) is null; anything else must pass `check`. */
export function optional<T>(check: Check<T>): Check<T | null> {
  return relaxed((value, field) => {
    if (value === undefined || value === null) return null;
    if (typeof value === 'string' && value.trim() === '') return null;
    return check(value, field);
  }, check);
}

/** Absent (or null) is `fallback`; anything present, even empty, must pass `check`. */
export function withDefault<T>(check: Check<T>, fallback: T): Check<T> {
  return relaxed((value, field) => (value === undefined || value === null ? fallback : check(value, field)), check);
}

export function bool(): Check<boolean> {
  return describeCheck(
    (value, field) => {
      if (typeof value !== 'boolean') throw fieldError(field, 'must be true or false');
      return value;
    },
    { kind: 'bool' },
  );
}

/** One of a fixed list of strings. */
export function oneOf<const T extends string>(values: readonly T[]): Check<T> {
  return describeCheck(
    (value, field) => {
      if (missing(value)) throw fieldError(field, 'is required', 'missing_field');
      if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
        throw fieldError(field, `must be one of ${values.join(', ')}`);
      }
      return value as T;
    },
    { kind: 'oneOf', values },
  );
}

/** A JSON array whose items each pass `item`, named field[i] in errors. */
export function list<T>(item: Check<T>, { max }: { max: number }): Check<T[]> {
  const itemSpec = specOf(item);
  const check: Check<T[]> = (value, field) => {
    if (!Array.isArray(value)) throw fieldError(field, 'must be a list');
    if (value.length > max) throw fieldError(field, `must have at most ${max} items`);
    return value.map((v, i) => item(v, `${field}[${i}]`));
  };
  return itemSpec ? describeCheck(check, { kind: 'list', max, item: itemSpec }) : check;
}

/**
 * Checks an object against a shape: every declared field is checked (absent ones see undefined); with
 * `partial`, absent fields are left out of the result instead. Undeclared fields are refused, so a
 * misspelt field is an error rather than silently ignored.
 */
export function parseShape<S extends Shape>(
  shape: S,
  input: Record<string, unknown>,
  opts: { partial?: boolean; where?: string; ignoreUnknown?: boolean } = {},
): Parsed<S> {
  if (!opts.ignoreUnknown)
    for (const key of Object.keys(input)) {
      if (!Object.hasOwn(shape, key)) throw fieldError(key, `is not a known ${opts.where ?? 'field'}`, 'unknown_field');
    }
  const out: Record<string, unknown> = {};
  for (const [key, check] of Object.entries(shape)) {
    if (opts.partial && !Object.hasOwn(input, key)) continue;
    out[key] = check(input[key], key);
  }
  return out as Parsed<S>;
}

/**
 * D39: the query string of a request target. URLSearchParams turns bytes that are not UTF-8 (an encoded
 * surrogate such as %ED%A0%80, a code point past U+10FFFF) into U+FFFD without a word; here they are a 400
 * naming the parameter, as lone surrogates in JSON text are. A `%` not followed by two hex digits stays
 * literal, as URLSearchParams reads it.
 */
export function queryParams(rawUrl: string | undefined): URLSearchParams {
  const query = (rawUrl ?? '').split('#', 1)[0]?.split('?').slice(1).join('?') ?? '';
  if (query.includes('%')) {
    for (const pair of query.split('&')) {
      const [key = '', value = ''] = pair.split(/=(.*)/s);
      for (const part of [key, value]) {
        try {
          decodeURIComponent(part.replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
        } catch {
          const name = new URLSearchParams(`${key.replace(/%(?![0-9a-fA-F]{2})/g, '%25')}=`).keys().next().value ?? '';
          throw fieldError(name.replace(/\uFFFD/g, '?'), 'is not valid Unicode text');
        }
      }
    }
  }
  return new URLSearchParams(query);
}

/**
 * A query string as single values; a repeated parameter is a 400 (which one would we believe?). A shape key
 * ending in `*` ('cf.*', D56) takes every parameter beginning with what precedes it, as { rest: value }.
 */
export function queryValues(search: URLSearchParams, shape: Shape): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const families = Object.keys(shape).filter((k) => k.endsWith('*'));
  for (const key of new Set(search.keys())) {
    // A family's own name ('cf.*') is never a parameter of its own: sent as one, it is a member like any other.
    const family = Object.hasOwn(shape, key) && !key.endsWith('*') ? null : families.find((f) => key.startsWith(f.slice(0, -1)));
    if (!Object.hasOwn(shape, key) && !family) continue; // unknown query parameters are ignored, as browsers and proxies add some
    const all = search.getAll(key);
    if (all.length > 1) throw fieldError(key, 'must be given once');
    if (family) ((out[family] ??= {}) as Record<string, unknown>)[key.slice(family.length - 1)] = all[0];
    else out[key] = all[0];
  }
  return out;
}

/** A required string taken exactly as sent (passwords, tokens): not trimmed, any characters. */
export function rawText({ max }: { max: number }): Check<string> {
  return describeCheck(
    (value, field) => {
      if (value === undefined || value === null || value === '') throw fieldError(field, 'is required', 'missing_field');
      if (typeof value !== 'string') throw fieldError(field, 'must be a string');
      if (value.length > max) throw fieldError(field, `must be at most ${max} characters`);
      return value;
    },
    { kind: 'rawText', max },
  );
}

/** Far past any real list; keeps OFFSET a sane number. */
export const MAX_PAGE = 1_000_000;
export const MAX_PAGE_SIZE = PAGE_SIZES[PAGE_SIZES.length - 1] ?? 100;

/** SPEC §7 paging of a list (customers, notes, a timeline, the activity log): `page` and `page_size`. */
export const pageQuery = {
  page: withDefault(intText({ min: 1, max: MAX_PAGE }), 1),
  page_size: withDefault(intText({ min: 1, max: MAX_PAGE_SIZE }), DEFAULT_PAGE_SIZE),
};
