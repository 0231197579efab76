import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '../ui/no-console';
import OrgPickerPage from '../../src/pages/org-picker/OrgPickerPage';
import { ACME, BEACON, jwt, json, makeSession, renderWithSession } from './session-helper';

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
    renderWithSession(makeSession({ state: { ...signedIn, organizations: [ACME, BEACON] } }), <OrgPickerPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Select Your Organization' })).toBeTruthy();
    expect(screen.getByText("You're a member of multiple organizations. Choose one to continue:")).toBeTruthy();
    expect(screen.getAllByRole('button')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Acme Plumbing' }).querySelector('img')?.getAttribute('src')).toBe('/logos/acme.svg');
    expect(screen.getByRole('button', { name: 'Beacon Electric' }).textContent).toBe('BEBeacon Electric');
  });

  it('SPEC §2 choosing an organization selects it and goes to /dashboard', async () => {
    const t = makeSession({ state: { ...signedIn, organizations: [ACME, BEACON] }, fetch: async () => json(me()) });
    t.kv.data.set('access_token', jwt());
    renderWithSession(t, <OrgPickerPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Beacon Electric' }));
    expect((screen.getByRole('button', { name: 'Acme Plumbing' }) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(t.navigate).toHaveBeenCalledWith('/dashboard', { replace: true }));
    expect(t.kv.data.get('current_org_id')).toBe('2');
  });

  it('SPEC §2 with exactly one organization: it is selected and the app goes to /dashboard', async () => {
    const t = makeSession({ state: { ...signedIn, organizations: [BEACON] }, fetch: async () => json(me([BEACON])) });
    t.kv.data.set('access_token', jwt());
    renderWithSession(t, <OrgPickerPage />);
    expect(screen.queryByRole('heading', { name: 'Select Your Organization' })).toBeNull();
    await waitFor(() => expect(t.navigate).toHaveBeenCalledWith('/dashboard', { replace: true }));
    expect(t.kv.data.get('current_org_id')).toBe('2');
  });

  it('SPEC §2 with no organizations: go to /login', async () => {
    const t = makeSession({ state: { ...signedIn, organizations: [] } });
    await act(async () => void renderWithSession(t, <OrgPickerPage />));
    await waitFor(() => expect(t.navigate).toHaveBeenCalledWith('/login', { replace: true }));
  });
});
