// D52: a session's browser and system in words, from its User-Agent: a few patterns of our own for the
// browsers and systems people use (Chrome, Firefox, Safari, Edge; Windows, macOS, iOS, Android, Linux).
// Anything else is null: the account page says 'Unknown browser' rather than guessing.

import { USER_AGENT_MAX_CHARS } from '../../auth/last-active';

export { USER_AGENT_MAX_CHARS };

export interface UserAgentWords {
  browser: string | null;
  system: string | null;
}

// Order matters: Edge and Opera say "Chrome" too, Chrome says "Safari", Android says "Linux", and an
// iPad's Safari says "Macintosh" (only its touch screen tells, which a server cannot see).
const BROWSERS: readonly [RegExp, string | null][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera|SamsungBrowser|YaBrowser|Vivaldi)\//, null],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\b(?:iPhone|iPad|iPod)\b.*\bAppleWebKit\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string | null][] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, null],
  [/\b(?:Macintosh|Mac OS X)\b/, 'macOS'],
  [/\b(?:Linux|X11)\b/, 'Linux'],
];

const first = (rules: readonly [RegExp, string | null][], ua: string): string | null => {
  for (const [pattern, name] of rules) if (pattern.test(ua)) return name;
  return null;
};

/** D52: the browser and system a User-Agent names, each null when not one we know. */
export function userAgentWords(ua: string | null | undefined): UserAgentWords {
  if (!ua) return { browser: null, system: null };
  const text = ua.slice(0, USER_AGENT_MAX_CHARS);
  return { browser: first(BROWSERS, text), system: first(SYSTEMS, text) };
}
