import { readFileSync } from 'node:fs';
import path from 'node:path';
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import './no-console';
import { setTheme, toggleTheme, useTheme } from '../../src/ui/theme';

// The boot script runs inline in index.html before first paint; run the real file here.
const boot = readFileSync(path.join(import.meta.dirname, '../../src/boot/theme.js'), 'utf8');
const runBoot = () => new Function(boot)();
const html = document.documentElement;

function prefersDark(dark: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation((q: string) => ({ matches: dark && q.includes('dark'), media: q }) as MediaQueryList);
}

afterEach(() => {
  html.classList.remove('dark');
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('theme', () => {
  it('D11 a stored dark theme puts the dark class on <html> at start', () => {
    prefersDark(false);
    localStorage.setItem('theme', 'dark');
    runBoot();
    expect(html.classList.contains('dark')).toBe(true);
  });

  it('D11 a stored light theme wins over a dark system preference', () => {
    prefersDark(true);
    localStorage.setItem('theme', 'light');
    runBoot();
    expect(html.classList.contains('dark')).toBe(false);
  });

  it('D11 with no stored theme the system preference decides', () => {
    prefersDark(true);
    runBoot();
    expect(html.classList.contains('dark')).toBe(true);
  });

  it("SPEC §4 the toggle switches the dark class and D11 stores 'dark' or 'light' under 'theme'", () => {
    const { result } = renderHook(() => useTheme());
    expect(result.current).toBe('light');
    act(() => toggleTheme());
    expect(html.classList.contains('dark')).toBe(true);
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(result.current).toBe('dark');
    act(() => toggleTheme());
    expect(html.classList.contains('dark')).toBe(false);
    expect(localStorage.getItem('theme')).toBe('light');
    expect(result.current).toBe('light');
  });

  it('useTheme reads the class the boot script set', () => {
    html.classList.add('dark');
    const { result } = renderHook(() => useTheme());
    expect(result.current).toBe('dark');
    act(() => setTheme('light'));
    expect(result.current).toBe('light');
  });
});
