// D35: the access log of a flood is a few writes, not one per request: the info lines of one turn of
// the event loop are written together once it has run; an error line writes them first (order kept).
import { afterEach, describe, expect, test, vi } from 'vitest';
import { consoleLogger } from '../../server/log';

const nextTurn = () => new Promise((r) => setImmediate(r));

describe('D35 the console logger', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test('D35 info lines of one loop turn are written in one write, in order, after it', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    for (let i = 0; i < 700; i++) consoleLogger.info(`line ${i}`);
    expect(out).not.toHaveBeenCalled();
    await nextTurn();
    expect(out).toHaveBeenCalledTimes(1);
    expect(out.mock.calls[0]![0]).toBe(Array.from({ length: 700 }, (_, i) => `line ${i}\n`).join(''));
    consoleLogger.info('later');
    await nextTurn();
    expect(out.mock.calls.map((c) => c[0])).toEqual([expect.any(String), 'later\n']);
  });

  test('D35 an error line is written after the info lines before it, at once', () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => (written.push(`out ${String(s)}`), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (written.push(`err ${String(s)}`), true));
    consoleLogger.info('a');
    consoleLogger.info('b');
    consoleLogger.error('boom');
    expect(written).toEqual(['out a\nb\n', 'err boom\n']);
  });
});
