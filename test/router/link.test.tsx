import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { Link, Navigate } from '../../src/router/Link';
import { location, navigate } from '../../src/router/location';

beforeEach(() => navigate('/start', { replace: true }));

describe('Link and navigate', () => {
  test('a Link renders a real href and a plain click navigates in-app through the History API', () => {
    const push = vi.spyOn(window.history, 'pushState');
    render(<Link to="/customers">Customers</Link>);
    const a = screen.getByRole('link', { name: 'Customers' });
    expect(a.getAttribute('href')).toBe('/customers');
    fireEvent.click(a, { button: 0 });
    expect(window.location.pathname).toBe('/customers');
    expect(location.getState().pathname).toBe('/customers');
    expect(push).toHaveBeenCalled();
    push.mockRestore();
  });

  test('modifier and middle clicks pass through to the browser', () => {
    const push = vi.spyOn(window.history, 'pushState');
    render(<Link to="/jobs">Jobs</Link>);
    const a = screen.getByRole('link', { name: 'Jobs' });
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }]) {
      const e = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
      document.addEventListener('click', (ev) => ev.preventDefault(), { once: true }); // after React's handler: keeps the test page from following it
      a.dispatchEvent(e);
      expect(push).not.toHaveBeenCalled();
    }
    push.mockRestore();
  });

  test('a click whose default was prevented is left alone', () => {
    render(
      <Link to="/jobs" onClick={(e) => e.preventDefault()}>
        Jobs
      </Link>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'Jobs' }));
    expect(window.location.pathname).toBe('/start');
  });

  test('the active link is marked with aria-current', () => {
    navigate('/customers/5');
    render(
      <>
        <Link to="/customers">Customers</Link>
        <Link to="/jobs">Jobs</Link>
      </>,
    );
    expect(screen.getByRole('link', { name: 'Customers' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Jobs' }).getAttribute('aria-current')).toBeNull();
  });

  test('Navigate replaces the current entry', () => {
    const replace = vi.spyOn(window.history, 'replaceState');
    render(<Navigate to="/login" />);
    expect(window.location.pathname).toBe('/login');
    expect(replace).toHaveBeenCalled();
    replace.mockRestore();
  });

  test('back and forward (popstate) update subscribers', () => {
    navigate('/a');
    window.history.pushState(null, '', '/b');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(location.getState().pathname).toBe('/b');
  });
});
