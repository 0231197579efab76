// SPEC §8 D15: a part that could not load says so where it would be (role=alert), with Retry.
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import './no-console';
import { HttpError } from '../../src/http/errors';
import { LoadError as LoadErrorNow } from '../../src/ui/load-error';
import { LoadError } from '../../src/ui/page';

const failed = new HttpError(500, { detail: 'Something broke.', code: 'error' }, '/x');

describe('LoadError', () => {
  it('SPEC §8 an announced card with the words and Retry; Retry asks again', async () => {
    const onRetry = vi.fn();
    render(<LoadError what="the team" error={failed} onRetry={onRetry} explained />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the team. Something broke.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('D15 while a retry runs the button keeps the focus (aria-disabled, never disabled) and a second press does nothing', () => {
    const onRetry = vi.fn();
    render(<LoadErrorNow what="customers" error={failed} onRetry={onRetry} busy />);
    const retry = screen.getByRole('button', { name: 'Retry' });
    expect(retry.hasAttribute('disabled')).toBe(false);
    expect(retry.getAttribute('aria-disabled')).toBe('true');
    expect(retry.getAttribute('aria-busy')).toBe('true');
    fireEvent.click(retry);
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('inline: one announced line inside a section, Retry as a link-button', () => {
    render(<LoadErrorNow inline what="the timeline" error={null} onRetry={() => {}} />);
    const alert = screen.getByRole('alert');
    expect(alert.tagName).toBe('P');
    expect(alert.textContent).toBe('Could not load the timeline. Please try again. Retry');
    expect(within(alert).getByRole('button', { name: 'Retry' }).className).toBe('link-btn');
  });
});
