import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import './no-console';
import { connectivity } from '../../src/http/connectivity';
import { SESSION_EXPIRED_EVENT } from '../../src/lib/events';
import { page } from '../../src/router/location';
import { ErrorBoundary } from '../../src/ui/error-boundary';
import { OfflineBanner } from '../../src/ui/offline-banner';
import { SessionExpiredDialog } from '../../src/ui/session-expired';
import SessionExpiredView from '../../src/ui/session-expired-view';

afterEach(() => {
  connectivity.setState(true);
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

async function openSessionExpired() {
  act(() => void window.dispatchEvent(new Event(SESSION_EXPIRED_EVENT)));
  return screen.findByRole('dialog', { name: 'Session Expired' });
}

describe('Session Expired dialog', () => {
  it('SPEC §2 opens on the sessionExpired window event with the spec text', async () => {
    render(<SessionExpiredDialog View={SessionExpiredView} />);
    expect(screen.queryByRole('dialog')).toBeNull();
    const dialog = await openSessionExpired();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(screen.getByText('Your session expired or could not be refreshed. Please log in again.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log In Again' })).toBeTruthy();
  });

  it('SPEC §2 Cancel closes the dialog and D15 focus returns to where it was', async () => {
    render(
      <>
        <button type="button">Save customer</button>
        <SessionExpiredDialog View={SessionExpiredView} />
      </>,
    );
    const before = screen.getByRole('button', { name: 'Save customer' });
    before.focus();
    const dialog = await openSessionExpired();
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(before);
    expect(window.location.pathname).toBe('/');
  });

  it("SPEC §2 'Log In Again' goes to /login", async () => {
    window.history.replaceState(null, '', '/customers');
    render(<SessionExpiredDialog View={SessionExpiredView} />);
    await openSessionExpired();
    fireEvent.click(screen.getByRole('button', { name: 'Log In Again' }));
    expect(window.location.pathname).toBe('/login');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('D15 Escape cancels the dialog', async () => {
    render(<SessionExpiredDialog View={SessionExpiredView} />);
    await openSessionExpired();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('D15 the dialog traps focus: Tab from the last button wraps to the first and back', async () => {
    render(<SessionExpiredDialog View={SessionExpiredView} />);
    await openSessionExpired();
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    const logIn = screen.getByRole('button', { name: 'Log In Again' });
    expect(document.activeElement).toBe(logIn);
    fireEvent.keyDown(logIn, { key: 'Tab' });
    expect(document.activeElement).toBe(cancel);
    fireEvent.keyDown(cancel, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(logIn);
  });
});

describe('offline banner', () => {
  it("SPEC §8 offline shows 'Connection lost. Changes may not save.' and online hides it", () => {
    render(<OfflineBanner />);
    expect(screen.queryByText('Connection lost. Changes may not save.')).toBeNull();
    act(() => connectivity.setState(false));
    expect(screen.getByRole('status').textContent).toBe('Connection lost. Changes may not save.');
    act(() => connectivity.setState(true));
    expect(screen.queryByText('Connection lost. Changes may not save.')).toBeNull();
  });
});

describe('error screen', () => {
  function Boom(): never {
    throw new Error('render failed');
  }

  it("SPEC §8 a rendering crash shows 'Something went wrong. Please try refreshing the page.' and Reload App reloads", () => {
    const reload = vi.spyOn(page, 'reload').mockImplementation(() => {});
    const onError = vi.fn();
    render(
      <ErrorBoundary onError={onError}>
        <Boom />
      </ErrorBoundary>,
      { onCaughtError: () => {} },
    );
    expect(screen.getByText('Something went wrong. Please try refreshing the page.')).toBeTruthy();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'render failed' }), expect.anything());
    fireEvent.click(screen.getByRole('button', { name: 'Reload App' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('the error boundary renders its children when nothing throws', () => {
    render(
      <ErrorBoundary>
        <p>fine</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText('fine')).toBeTruthy();
  });
});
