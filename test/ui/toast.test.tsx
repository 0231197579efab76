import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import './no-console';
import { TOAST_LIFETIME_MS, toast, toasts } from '../../src/ui/toast';
import { Toaster } from '../../src/ui/toaster';

beforeEach(() => {
  vi.useFakeTimers();
  toasts.setState([]);
});
afterEach(() => {
  vi.useRealTimers();
});

const region = () => screen.getByRole('region', { name: /notifications/i });

describe('toasts', () => {
  it('SPEC §9 toasts auto-close after 5000 ms', () => {
    expect(TOAST_LIFETIME_MS).toBe(5000);
    render(<Toaster />);
    act(() => void toast.error('Login failed. Please try again.'));
    expect(screen.getByText('Login failed. Please try again.')).toBeTruthy();
    act(() => vi.advanceTimersByTime(4999));
    expect(screen.queryByText('Login failed. Please try again.')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Login failed. Please try again.')).toBeNull();
  });

  it('toasts pause while hovered and resume with the time they had left', () => {
    render(<Toaster />);
    act(() => void toast.info('Saved draft'));
    act(() => vi.advanceTimersByTime(3000));
    fireEvent.mouseEnter(region());
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.queryByText('Saved draft')).not.toBeNull();
    fireEvent.mouseLeave(region());
    act(() => vi.advanceTimersByTime(1999));
    expect(screen.queryByText('Saved draft')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Saved draft')).toBeNull();
  });

  it('D15 toasts live in a polite live region', () => {
    render(<Toaster />);
    act(() => void toast.success('Customer saved'));
    const live = screen.getByText('Customer saved').closest('[aria-live]');
    expect(live?.getAttribute('aria-live')).toBe('polite');
    expect(region().contains(live)).toBe(true);
  });

  it('SPEC §9 Alt+T focuses the notifications', () => {
    render(<Toaster />);
    act(() => void toast.error('Something failed'));
    fireEvent.keyDown(window, { key: 't', code: 'KeyT', altKey: true });
    expect(document.activeElement).toBe(region());
  });

  it('a toast can be dismissed with its close button', () => {
    render(<Toaster />);
    act(() => void toast.error('Oops'));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Oops')).toBeNull();
  });

  it('the same message shown twice in a row appears once', () => {
    render(<Toaster />);
    act(() => {
      toast.error('Login failed. Check your credentials.');
      toast.error('Login failed. Check your credentials.');
    });
    expect(screen.getAllByText('Login failed. Check your credentials.')).toHaveLength(1);
  });
});
