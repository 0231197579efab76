// D24 D32: times read as people say them, with the exact time in <time dateTime> and its title.
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { absoluteTime, Day, dayText, relativeTime, When } from '../../src/ui/when';

const NOW = Date.parse('2025-06-15T12:00:00Z');
const ago = (sec: number) => new Date(NOW - sec * 1000).toISOString();

describe('relative times', () => {
  it.each([
    [10, 'just now'],
    [5 * 60, '5 minutes ago'],
    [3 * 3600, '3 hours ago'],
    [86_400, 'yesterday'],
    [3 * 86_400, '3 days ago'],
    [14 * 86_400, '2 weeks ago'],
    [400 * 86_400, 'last year'],
  ])('%i seconds ago reads "%s"', (sec, words) => {
    expect(relativeTime(ago(sec), NOW)).toBe(words);
  });

  it('something that is not a date reads as nothing', () => {
    expect(relativeTime('soon', NOW)).toBe('');
    expect(absoluteTime('soon')).toBe('');
  });

  it('When is a <time> with the machine-readable moment and the exact local time as its title', () => {
    const { container } = render(<When at="2025-03-04T14:05:00.000Z" />);
    const time = container.querySelector('time')!;
    expect(time.getAttribute('dateTime')).toBe('2025-03-04T14:05:00.000Z');
    expect(time.getAttribute('title')).toBe(absoluteTime('2025-03-04T14:05:00.000Z'));
    expect(time.getAttribute('title')).toMatch(/2025/);
  });
});

describe('dates', () => {
  it('D22 D28 a day is the local date alone, the same on every screen ("Mar 4, 2025")', () => {
    const at = '2025-03-04T12:00:00.000Z';
    expect(dayText(at)).toBe(new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(Date.parse(at)));
    expect(dayText(at)).toMatch(/2025/);
    expect(dayText('soon')).toBe('');
  });

  it('Day is a <time> with the machine-readable moment; with no date, its fallback', () => {
    const { container } = render(<Day at="2025-03-04T12:00:00.000Z" />);
    expect(container.querySelector('time')!.getAttribute('dateTime')).toBe('2025-03-04T12:00:00.000Z');
    const none = render(<Day at={null} fallback="—" />);
    expect(none.container.textContent).toBe('—');
  });
});
