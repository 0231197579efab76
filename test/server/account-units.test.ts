// D52's pure parts: a session's browser and system from its User-Agent, by a parser of our own (real
// User-Agents of each browser and system we name, and the ones we do not: null rather than a guess), and
// this instance's memory of when it last wrote a session's last activity (no statement within the minute).
import { describe, expect, test } from 'vitest';
import { LAST_ACTIVE_WRITE_INTERVAL_MS } from '../../contract/account';
import { dueForWrite } from '../../server/auth/last-active';
import type { Ctx } from '../../server/context';
import { USER_AGENT_MAX_CHARS, userAgentWords } from '../../server/features/account/user-agent';

const CASES: [ua: string, browser: string | null, system: string | null][] = [
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome', 'Windows'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge', 'Windows'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox', 'Windows'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', 'Safari', 'macOS'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome', 'macOS'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox', 'macOS'],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1', 'Safari', 'iOS'],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1', 'Chrome', 'iOS'],
  ['Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15', 'Firefox', 'iOS'],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) EdgiOS/131.0.2903.68 Mobile/15E148 Safari/605.1.15', 'Edge', 'iOS'],
  ['Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome', 'Android'],
  ['Mozilla/5.0 (Android 15; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0', 'Firefox', 'Android'],
  ['Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0', 'Edge', 'Android'],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome', 'Linux'],
  ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox', 'Linux'],
  // Not ours to name: Opera and Samsung's browser say Chrome too; ChromeOS says Linux; tools name nothing.
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/114.0.0.0', null, 'Windows'],
  ['Mozilla/5.0 (Linux; Android 14; SM-S928B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36', null, 'Android'],
  ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome', null],
  ['curl/8.5.0', null, null],
  ['node', null, null],
];

describe('D52 browser and system from the User-Agent', () => {
  test.each(CASES)('D52 %s → %s on %s', (ua, browser, system) => {
    expect(userAgentWords(ua)).toEqual({ browser, system });
  });

  test('D52 no User-Agent names nothing; a long one is read only as far as it is kept', () => {
    expect(userAgentWords(null)).toEqual({ browser: null, system: null });
    expect(userAgentWords('')).toEqual({ browser: null, system: null });
    expect(userAgentWords(`${'x'.repeat(USER_AGENT_MAX_CHARS)} (Windows NT 10.0) Firefox/133.0`)).toEqual({ browser: null, system: null });
  });
});

describe('D52 last active: one write per session per minute from this instance', () => {
  test('D52 the first call of a session is due, the next ones within the minute are not, the first after it is', () => {
    const ctx = {} as Ctx; // only its identity is used
    const t = 1_000_000;
    expect(dueForWrite(ctx, 7, t)).toBe(true);
    expect(dueForWrite(ctx, 7, t + 1)).toBe(false);
    expect(dueForWrite(ctx, 7, t + LAST_ACTIVE_WRITE_INTERVAL_MS - 1)).toBe(false);
    expect(dueForWrite(ctx, 8, t + 1)).toBe(true); // each session on its own
    expect(dueForWrite(ctx, 7, t + LAST_ACTIVE_WRITE_INTERVAL_MS)).toBe(true);
    expect(dueForWrite(ctx, 7, t + LAST_ACTIVE_WRITE_INTERVAL_MS + 1)).toBe(false);
    expect(dueForWrite({} as Ctx, 7, t + 1)).toBe(true); // another server in the process keeps its own
  });
});
