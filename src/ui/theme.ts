// D11 / SPEC §4 Theme: a `dark` class on <html> (set before first paint by src/boot/theme.js);
// the toggle flips it and stores 'dark' or 'light' under the `theme` key.
import { useSyncExternalStore } from 'react';
import { createStorage, KEYS, type AppStorage } from '../lib/storage';
import { createStore } from '../lib/store';

export const DARK_CLASS = 'dark';
export type Theme = 'dark' | 'light';

const root = () => document.documentElement;
const read = (): Theme => (root().classList.contains(DARK_CLASS) ? 'dark' : 'light');

// The class on <html> is the truth; this store only tells React that it changed.
const changes = createStore(0);

/** Applies a theme to <html> and stores it as the user's choice. */
export function setTheme(next: Theme, storage: AppStorage = createStorage()): void {
  root().classList.toggle(DARK_CLASS, next === 'dark');
  storage.set(KEYS.theme, next);
  changes.setState((n) => n + 1);
}

export function toggleTheme(storage?: AppStorage): void {
  setTheme(read() === 'dark' ? 'light' : 'dark', storage);
}

export function useTheme(): Theme {
  return useSyncExternalStore(changes.subscribe, read, read);
}
