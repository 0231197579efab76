// D22: one status map: each status's name and tone, the same on every screen.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_STATUS_LABELS, CUSTOMER_STATUSES } from '../../contract/customers';
import { STATUS_COUNT_WORDS, StatusBadge } from '../../src/ui/status';

describe('statuses', () => {
  it('D22 every status has a name and count words', () => {
    expect(CUSTOMER_STATUSES.map((s) => CUSTOMER_STATUS_LABELS[s])).toEqual(['Lead', 'Active', 'Inactive']);
    expect(CUSTOMER_STATUSES.map((s) => STATUS_COUNT_WORDS[s].many)).toEqual(['leads', 'active', 'inactive']);
  });

  it('D22 the badge names the status and carries its tone in data-status', () => {
    render(<StatusBadge status="lead" />);
    const badge = screen.getByText('Lead');
    expect(badge.className).toBe('status');
    expect(badge.getAttribute('data-status')).toBe('lead');
  });
});
