import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '../ui/no-console';
import OrgPickerPage from '../../src/pages/org-picker/OrgPickerPage';
import { accessToken, ACME, BEACON, json } from '../helpers/fake-api';
import { renderWithSession } from '../helpers/render';
import { pageSession } from '../helpers/session';

const me = (orgs = [ACME, BEACON]) => ({
  user: { email: 'owner@demo.test', first_name: 'Olivia', avatar_url: null },
  organizations: orgs,
  permissions: ['dashboard:view'],
  features: [],
  role: 'owner',
});
const signedIn = { isAuthenticated: true, currentOrg: null, user: me().user };

describe('organization picker', () => {
  it("SPEC §2 with several organizations: 'Select Your Organization', the text, and one button per organization", () => {
    renderWithSession(pageSession({ state: { ...signedIn, organizations: [ACME, BEACON] } }), <OrgPickerPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Select Your Organization' })).toBeTruthy();
    expect(screen.getByText("You're a member of multiple organizations. Choose one to continue:")).toBeTruthy();
    expect(screen.getAllByRole('button')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Acme Plumbing' }).querySelector('img')?.getAttribute('src')).toBe('/logos/acme.svg');
    expect(screen.getByRole('button', { name: 'Beacon Electric' }).textContent).toBe('BEBeacon Electric');
  });

  it('SPEC §2 choosing an organization selects it and goes to /dashboard', async () => {
    const t = pageSession({ state: { ...signedIn, organizations: [ACME, BEACON] }, fetch: async () => json(200, me()) });
    t.kv.map.set('access_token', accessToken());
    renderWithSession(t, <OrgPickerPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Beacon Electric' }));
    expect((screen.getByRole('button', { name: 'Acme Plumbing' }) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(t.navigate).toHaveBeenCalledWith('/dashboard', { replace: true }));
    expect(t.kv.map.get('current_org_id')).toBe('2');
  });

  it('SPEC §2 with exactly one organization: it is selected and the app goes to /dashboard', async () => {
    const t = pageSession({ state: { ...signedIn, organizations: [BEACON] }, fetch: async () => json(200, me([BEACON])) });
    t.kv.map.set('access_token', accessToken());
    renderWithSession(t, <OrgPickerPage />);
    expect(screen.queryByRole('heading', { name: 'Select Your Organization' })).toBeNull();
    await waitFor(() => expect(t.navigate).toHaveBeenCalledWith('/dashboard', { replace: true }));
    expect(t.kv.map.get('current_org_id')).toBe('2');
  });

  it('SPEC §2 with no organizations: go to /login', async () => {
    const t = pageSession({ state: { ...signedIn, organizations: [] } });
    await act(async () => void renderWithSession(t, <OrgPickerPage />));
    await waitFor(() => expect(t.navigate).toHaveBeenCalledWith('/login', { replace: true }));
  });
});
