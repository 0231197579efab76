// D46 D47: the customer page's locations and contacts sections are a chunk of their own
// (customers/parts/lazy-parts.tsx). Its import starts when the page's module loads (in parallel with
// the customer's data call); until it arrives both sections stand with their headings and loading words;
// a failed load says so with Retry, which asks for the code again.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import { janeDoe } from '../helpers/fake-customer';

const code = vi.hoisted(() => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { attempts: 0, gate, open };
});

// The sections' chunk, held until the test lets it arrive; the first attempt fails as offline would.
vi.mock('../../src/pages/customers/parts/CustomerParts', async () => {
  code.attempts += 1;
  await code.gate;
  if (code.attempts === 1) throw new Error('Failed to fetch dynamically imported module: /assets/chunks/CustomerParts.js');
  return { CustomerParts: ({ customer }: { customer: { name: string } }) => <p>Locations and contacts of {customer.name}</p> };
});

const { LazyParts } = await import('../../src/pages/customers/parts/lazy-parts');

describe('D46 D47 the locations and contacts load on their own', () => {
  it('their code is asked for when the page module loads, before anything renders (no waterfall)', () => {
    expect(code.attempts).toBe(1);
  });

  it('stand with their headings and loading words, say so with Retry if the code fails, and show once it loads', async () => {
    render(<LazyParts customer={janeDoe()} />);
    expect(within(screen.getByRole('region', { name: 'Service locations' })).getByRole('status').textContent).toContain('Loading the locations…');
    expect(within(screen.getByRole('region', { name: 'Contacts' })).getByRole('status').textContent).toContain('Loading the contacts…');

    await act(async () => code.open());
    const alert = await within(screen.getByRole('region', { name: 'Service locations' })).findByRole('alert');
    expect(alert.textContent).toContain('Could not load the locations and contacts.');

    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Locations and contacts of Jane Doe')).toBeTruthy();
    expect(code.attempts).toBe(2);
  });
});
