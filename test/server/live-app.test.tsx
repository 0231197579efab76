// @vitest-environment happy-dom
// D2 / SPEC §4: the app's login → organization → dashboard flow against the real API server, in
// happy-dom, through the real fetch client (no fake API anywhere on this path). In the server project:
// its cost is a server's start, which the app project's files do not pay.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { App } from '../../src/app/App';
import { createStorage } from '../../src/lib/storage';
import { currentPath, navigate, page } from '../../src/router/location';
import { createSession } from '../../src/session/controller';
import { migratedDataDir, removeDir, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let dataDir: string;
beforeAll(async () => {
  // The schema from the suite's migrated template; the demo data seeded on start, as `npm start` does.
  dataDir = await migratedDataDir('live-app');
  server = await startTestServer({ dataDir });
  // Same origin as the server, as in production: the client calls the relative API base.
  (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(`${server.url}/login`);
}, 60_000);
afterAll(async () => {
  await server?.close();
  if (dataDir) removeDir(dataDir);
});

test('the app signs in against the real server: login → organization picker → dashboard of the chosen organization', async () => {
  const session = createSession({
    storage: createStorage(localStorage),
    base: () => '/api',
    navigate,
    currentPath,
    assign: page.assign,
    lock: (fn) => fn(false),
  });
  navigate('/login', { replace: true });
  render(<App session={session} />);
  await act(() => session.load());
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'owner@demo.test' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'demo-password' } });
  fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
  fireEvent.click(await screen.findByRole('button', { name: 'Beacon Electric' }, { timeout: 10_000 }));
  await screen.findByRole('heading', { name: 'Dashboard', level: 1 }, { timeout: 10_000 });
  expect(window.location.pathname).toBe('/dashboard');
  expect(within(screen.getByRole('complementary', { name: 'Sidebar' })).getByText('Beacon Electric')).toBeTruthy();
  expect(session.store.getState()).toMatchObject({ role: 'admin', currentOrg: { name: 'Beacon Electric' } });
  expect(session.can('customers:create')).toBe(true);
  expect(session.can('permissions:manage')).toBe(false); // D10: admin is all but permissions:manage
  expect(localStorage.getItem('access_token')?.split('.')).toHaveLength(3);
  expect(localStorage.getItem('current_org_id')).toBe(String(session.store.getState().currentOrg?.id));
  // the dashboard's data card came from the real customers endpoint of that organization
  const [beacon] = await server.db.query<{ n: unknown }>(
    "select count(*)::int as n from customers c join organizations o on o.id = c.org_id where o.name = 'Beacon Electric' and c.deleted_at is null",
  );
  expect(Number(beacon?.n)).toBeGreaterThan(0);
  const card = screen.getByRole('region', { name: 'Customers' });
  await within(card).findByText(String(Number(beacon?.n)), { selector: '.stat-value' }, { timeout: 10_000 });
}, 60_000);
