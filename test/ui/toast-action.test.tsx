// D25 D15: a toast may carry a real button (the Undo after a delete): it is inside the polite live
// region, Alt+T still focuses the notifications, and Tab then reaches the button.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import './no-console';
import { Toaster, toast, toasts } from '../../src/ui/toast';

beforeEach(() => toasts.setState([]));

describe('toasts with an action', () => {
  it('D25 D15 a button in a toast is a real button in the live region, reached after Alt+T', () => {
    const undo = vi.fn();
    render(<Toaster />);
    act(
      () =>
        void toast.success(
          <>
            Jane Doe deleted{' '}
            <button type="button" onClick={undo}>
              Undo
            </button>
          </>,
        ),
    );
    const region = screen.getByRole('region', { name: 'Notifications (Alt+T)' });
    const button = within(region).getByRole('button', { name: 'Undo' });
    expect(button.closest('[aria-live]')?.getAttribute('aria-live')).toBe('polite');
    fireEvent.keyDown(window, { key: 't', code: 'KeyT', altKey: true });
    expect(document.activeElement).toBe(region);
    fireEvent.click(button);
    expect(undo).toHaveBeenCalledTimes(1);
    expect(within(region).getByText(/Jane Doe deleted/)).toBeTruthy();
  });

  it('text toasts are as before: the same message twice shows once', () => {
    render(<Toaster />);
    act(() => {
      toast.info('Saved');
      toast.info('Saved');
    });
    expect(screen.getAllByText('Saved')).toHaveLength(1);
  });
});
