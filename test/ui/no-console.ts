// Imported by the UI, shell and page suites: any console.error or console.warn (React act()
// warnings, key warnings, failed prop types) fails the test that caused it.
import { afterEach, beforeEach, expect, vi, type MockInstance } from 'vitest';

let error: MockInstance<typeof console.error>;
let warn: MockInstance<typeof console.warn>;

beforeEach(() => {
  error = vi.spyOn(console, 'error');
  warn = vi.spyOn(console, 'warn');
});

afterEach(() => {
  const calls = [...error.mock.calls, ...warn.mock.calls];
  error.mockRestore();
  warn.mockRestore();
  expect(calls, 'console output during the test').toEqual([]);
});
