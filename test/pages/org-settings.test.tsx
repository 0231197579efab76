// D54 organization settings (/settings): 'Require two-step sign-in for everyone', a switch an owner
// changes; others see it read-only (and no sidebar link); the server's refusal in words.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import { MSG_EXPORT_OWNER_ONLY, MSG_EXPORTED } from '../../src/pages/settings/ExportAll';
import SettingsPage, { MSG_OWNER_ONLY, MSG_REQUIRED_ON } from '../../src/pages/settings/SettingsPage';
import type { SessionState } from '../../src/session/types';
import { NAV, visibleNav } from '../../src/shell/nav';
import { toasts } from '../../src/ui/toast';
import { FakeApi, json } from '../helpers/fake-api';
import { renderPage } from '../helpers/render';
import { ALL_PERMISSIONS, WITH_ORG } from '../helpers/session';

const ADMIN: Partial<SessionState> = { ...WITH_ORG, role: 'admin', permissions: ALL_PERMISSIONS.filter((p) => p !== 'permissions:manage') };

function show(state: Partial<SessionState> = WITH_ORG, setup: (api: FakeApi) => void = () => {}) {
  const api = new FakeApi();
  api.account.role = state.role ?? 'owner';
  setup(api);
  renderPage('/settings', <SettingsPage />, { as: state, fake: api });
  return { api, account: api.account };
}

const toggle = () => screen.findByRole('switch', { name: 'Require two-step sign-in for everyone' });
const patches = (api: FakeApi) => api.calls.filter((c) => c.method === 'PATCH' && c.path === '/api/v1/organization/settings/');

beforeEach(() => toasts.setState([]));

describe('D54 organization settings', () => {
  it('D54 an owner turns "Require two-step sign-in for everyone" on; the switch keeps the focus and says it is on', async () => {
    const { api, account } = show();
    const sw = await toggle();
    expect(sw.getAttribute('aria-checked')).toBe('false');
    expect(sw.getAttribute('aria-disabled')).toBeNull();
    expect(screen.queryByText(MSG_OWNER_ONLY, { exact: false })).toBeNull();
    sw.focus();
    fireEvent.click(sw);
    await waitFor(() => expect(account.settings.require_mfa).toBe(true));
    await waitFor(() => expect(sw.getAttribute('aria-checked')).toBe('true'));
    expect(patches(api).map((c) => c.body)).toEqual([{ require_mfa: true }]);
    expect(toasts.getState().map((t) => t.message)).toContain(MSG_REQUIRED_ON);
    expect(document.activeElement).toBe(sw);
  });

  it('D54 anyone else sees the setting read-only and says why; pressing it sends nothing', async () => {
    const { api } = show(ADMIN, (a) => (a.account.settings = { require_mfa: true }));
    const sw = await toggle();
    expect(sw.getAttribute('aria-checked')).toBe('true');
    expect(sw.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText(MSG_OWNER_ONLY, { exact: false })).toBeTruthy();
    fireEvent.click(sw);
    expect(patches(api)).toEqual([]);
  });

  it('D54 the server’s refusal (403) is said in its words; the switch stays as it was', async () => {
    show(WITH_ORG, (a) => (a.account.role = 'admin'));
    const sw = await toggle();
    fireEvent.click(sw);
    expect((await screen.findByRole('alert')).textContent).toBe('Could not change the setting. Only an owner can change the organization’s settings');
    expect(sw.getAttribute('aria-checked')).toBe('false');
  });

  it('D54 the sidebar links to the settings for owners only', () => {
    const links = (role: string) => visibleNav(ALL_PERMISSIONS, NAV, role).flatMap((s) => s.links.map((l) => l.to));
    expect(links('owner')).toContain('/settings');
    expect(links('admin')).not.toContain('/settings');
    expect(links('admin')).toContain('/team');
  });
});

describe('D67 download everything', () => {
  const button = () => screen.findByRole('button', { name: /Download everything|Preparing the file/ });
  const exports = (api: FakeApi) => api.calls.filter((c) => c.method === 'POST' && c.path === '/api/v1/organization/export/');
  afterEach(() => vi.restoreAllMocks());

  it('D67 an owner downloads one ZIP named after the organization and the day; the page says it is done', async () => {
    const made = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:zip');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const { api } = show(WITH_ORG, (a) =>
      a.routes.set('/v1/organization/export/', () => new Response(new Uint8Array([0x50, 0x4b, 5, 6]), { status: 200, headers: { 'Content-Type': 'application/zip' } })),
    );
    fireEvent.click(await button());
    await waitFor(() => expect(toasts.getState().map((t) => t.message)).toContain(MSG_EXPORTED));
    expect(exports(api)).toHaveLength(1);
    const blob = made.mock.calls[0]![0] as Blob;
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([0x50, 0x4b, 5, 6]);
  });

  it('D67 anyone else sees why they cannot; pressing it sends nothing', async () => {
    const { api } = show(ADMIN);
    const b = await button();
    expect(b.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText(MSG_EXPORT_OWNER_ONLY, { exact: false })).toBeTruthy();
    fireEvent.click(b);
    expect(exports(api)).toEqual([]);
  });

  it('D67 the server’s refusal is said in its words', async () => {
    show(WITH_ORG, (a) =>
      a.routes.set('/v1/organization/export/', () => json(403, { detail: 'Only an owner can export all of the organization’s data', code: 'owner_required' })),
    );
    fireEvent.click(await button());
    expect((await screen.findByRole('alert')).textContent).toBe('Could not download your data. Only an owner can export all of the organization’s data');
  });
});
