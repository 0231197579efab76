// D24 D32: a moment shown as people say it ("3 hours ago"), with the exact date and time on hover and
// in the <time dateTime> a screen reader or a copy-paste can use.

/** Closer than this to now reads "just now". */
const JUST_NOW_SEC = 45;
/** From the largest unit down: the first one the distance reaches is used. */
const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

/** D41: the time of day, with the date when it is not today ("9:05 AM", "Nov 20, 2026, 9:05 AM"). */
export function timeOfDay(at: number, now = Date.now()): string {
  const when = new Date(at);
  return when.toDateString() === new Date(now).toDateString() ? clock.format(when) : absolute.format(when);
}

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago"; '' for a value that is not a date. */
export function relativeTime(iso: string, now = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const sec = (at - now) / 1000;
  if (Math.abs(sec) < JUST_NOW_SEC) return 'just now';
  const [unit, size] = UNITS.find(([, s]) => Math.abs(sec) >= s) ?? ['minute', 60];
  return relative.format(Math.round(sec / size), unit);
}

/** The exact local date and time ("Mar 4, 2025, 2:05 PM"). */
export function absoluteTime(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? '' : absolute.format(at);
}

/** The local date alone ("Mar 4, 2025"): a day something happened or ends. */
export function dayText(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? '' : dayFormat.format(at);
}

/** A date as a <time> ("Mar 4, 2025"); `fallback` when there is none. */
export function Day({ at, fallback = '' }: { at: string | null | undefined; fallback?: string }) {
  return at ? <time dateTime={at}>{dayText(at)}</time> : fallback;
}

export function When({ at }: { at: string }) {
  return (
    <time dateTime={at} title={absoluteTime(at)}>
      {relativeTime(at)}
    </time>
  );
}
