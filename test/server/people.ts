// Organizations and signed-in people of a test's own, shared by the server and resilience suites: each
// test makes a fresh organization (it gets D10's matrix by trigger) so tests never share members.
import type { Db } from '../../server/db';
import type { Backend } from './backends';
import { createUser, tokens, type Reply } from './helpers';

export interface Org {
  id: number;
  name: string;
}

/** A user of the test's own, signed in, acting in their first organization unless a call names another. */
export interface Person {
  id: number;
  email: string;
  password: string;
  name: string;
  org: number;
  token: string;
  /** A request with this person's token (a JSON body when given), in their organization unless another is named. */
  call(method: string, path: string, body?: unknown, org?: number): Promise<Reply>;
  /** A request with a body of any type, in their organization. */
  raw(method: string, path: string, body: string, type: string): Promise<Reply>;
  /** Signs in again: a fresh access token. */
  signIn(): Promise<void>;
}

let counter = 0;

/** A new organization named `prefix` and a unique suffix. */
export async function newOrg(db: Db, prefix = 'Test Org'): Promise<Org> {
  const name = `${prefix} ${++counter} ${Math.random().toString(36).slice(2, 8)}`;
  const [row] = await db.query<{ id: unknown }>('insert into organizations (name) values ($1) returning id', [name]);
  return { id: Number(row?.id), name };
}

/** A new user with `role` in `org` (none when null) and the other memberships given, signed in. */
export async function person(b: Pick<Backend, 'server' | 'api'>, org: Org | null, role = 'admin', ...more: [Org, string][]): Promise<Person> {
  const memberships: [string, string][] = [...(org ? [[org.name, role] as [string, string]] : []), ...more.map(([o, r]): [string, string] => [o.name, r])];
  const user = await createUser(b.server.db, { memberships });
  const headers = (inOrg: number, type?: string) => ({
    Authorization: `Bearer ${self.token}`,
    'X-Organization-ID': String(inOrg),
    ...(type ? { 'Content-Type': type } : {}),
  });
  const self: Person = {
    ...user,
    org: org?.id ?? 0,
    token: '',
    call: (method, path, body, inOrg = self.org) =>
      b.api.request(path, {
        method,
        headers: headers(inOrg, body === undefined ? undefined : 'application/json'),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    raw: (method, path, body, type) => b.api.request(path, { method, headers: headers(self.org, type), body }),
    signIn: async () => void (self.token = tokens(await b.api.login(user.email, user.password)).access_token),
  };
  await self.signIn();
  return self;
}

/** `newOrg` and `person` for one suite's backend (read when first called, after the suite's servers start). */
export function people(backend: () => Pick<Backend, 'server' | 'api'>, prefix?: string) {
  const org = () => newOrg(backend().server.db, prefix);
  return {
    newOrg: org,
    person: (o: Org | null, role?: string, ...more: [Org, string][]) => person(backend(), o, role, ...more),
    /** A new organization with one new person per role given, in that order. */
    team: async (...roles: string[]) => {
      const o = await org();
      const members: Person[] = [];
      for (const role of roles) members.push(await person(backend(), o, role));
      return { org: o, people: members };
    },
  };
}

/** Every row of these tables (all organizations), hashed: what a refused call must leave exactly as it was. */
export async function tablesSnapshot(db: Db, tables: string[]): Promise<string> {
  const parts: string[] = [];
  for (const table of tables) {
    const [row] = await db.query<{ h: string | null; n: unknown }>(`select md5(string_agg(t::text, '|' order by t::text)) as h, count(*) as n from ${table} t`);
    parts.push(`${table}:${String(row?.n)}:${row?.h ?? ''}`);
  }
  return parts.join(' ');
}

/** The server's last error lines: why a 500 happened. */
export const failedLines = (logs: readonly string[]) =>
  logs
    .filter((l) => l.includes(' failed: '))
    .slice(-2)
    .map((l) => l.split('\n')[0]!);
