// D24: the customer page's notes-and-history section is a chunk of its own
// (customers/detail/lazy-timeline.tsx). Its import starts when the page's module loads (in parallel
// with the customer's data call); until it arrives the section stands with its heading and the
// timeline's loading words; a failed load says so with Retry, which asks for the code again.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import '../ui/no-console';

const code = vi.hoisted(() => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { attempts: 0, gate, open };
});

// The timeline's chunk, held until the test lets it arrive; the first attempt fails as offline would.
vi.mock('../../src/pages/customers/detail/Timeline', async () => {
  code.attempts += 1;
  await code.gate;
  if (code.attempts === 1) throw new Error('Failed to fetch dynamically imported module: /assets/chunks/Timeline.js');
  return { Timeline: ({ customerId }: { customerId: number }) => <p>Timeline of customer {customerId}</p> };
});

const { LazyTimeline } = await import('../../src/pages/customers/detail/lazy-timeline');

describe('D24 the notes-and-history section loads on its own', () => {
  it('its code is asked for when the page module loads, before anything renders (no waterfall)', () => {
    expect(code.attempts).toBe(1);
  });

  it('stands with its heading and loading words, says so with Retry if the code fails, and shows the timeline once it loads', async () => {
    render(<LazyTimeline customerId={7} />);
    const region = screen.getByRole('region', { name: 'Notes and history' });
    expect(within(region).getByRole('heading', { level: 2, name: 'Notes and history' })).toBeTruthy();
    expect(within(region).getByRole('status').textContent).toContain('Loading the timeline…');

    await act(async () => code.open());
    const alert = await within(screen.getByRole('region', { name: 'Notes and history' })).findByRole('alert');
    expect(alert.textContent).toContain('Could not load the timeline.');

    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Timeline of customer 7')).toBeTruthy();
    expect(code.attempts).toBe(2);
  });
});
