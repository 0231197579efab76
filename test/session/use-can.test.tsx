// D9 / STYLE: one useCan(permission) for every permission check on screen.
import { act, render, screen } from '@testing-library/react';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Permission } from '../../contract/permissions';
import { SessionProvider, useCan } from '../../src/session/use-session';
import { makeSession, WITH_ORG } from '../helpers/session';

function Can({ permission }: { permission?: Permission }) {
  return <p>{useCan(permission) ? 'allowed' : 'refused'}</p>;
}

describe('D9 useCan', () => {
  test('D9 answers from the session’s permissions and re-renders when they change (D29 reloads them)', () => {
    const t = makeSession({ state: { ...WITH_ORG, permissions: ['customers:view'] } });
    render(
      <SessionProvider session={t.session}>
        <Can permission="customers:delete" />
      </SessionProvider>,
    );
    expect(screen.getByText('refused')).toBeTruthy();
    act(() => t.session.store.setState((s) => ({ ...s, permissions: [...s.permissions, 'customers:delete'] })));
    expect(screen.getByText('allowed')).toBeTruthy();
  });

  test('no permission named: allowed (a route that needs none)', () => {
    const t = makeSession({ state: { ...WITH_ORG, permissions: [] } });
    render(
      <SessionProvider session={t.session}>
        <Can />
      </SessionProvider>,
    );
    expect(screen.getByText('allowed')).toBeTruthy();
  });

  test('STYLE screens check permissions through useCan, not by reading the permissions list', () => {
    const root = path.join(import.meta.dirname, '../../src/pages');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => (statSync(path.join(dir, f)).isDirectory() ? files(path.join(dir, f)) : [path.join(dir, f)]));
    const offenders = files(root).filter((f) => /permissions\s*\.\s*includes|\bcan\(/.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
