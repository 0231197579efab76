// SPEC §2: sidebar sections collapse and expand; the choice is remembered while the app runs
// (in memory: a reload starts with every section open).
import { useSyncExternalStore } from 'react';
import { createStore } from '../lib/store';

export const collapsedSections = createStore<ReadonlySet<string>>(new Set());

export function toggleSection(title: string): void {
  collapsedSections.setState((prev) => {
    const next = new Set(prev);
    if (!next.delete(title)) next.add(title);
    return next;
  });
}

export function useCollapsed(title: string): boolean {
  const read = () => collapsedSections.getState().has(title);
  return useSyncExternalStore(collapsedSections.subscribe, read, read);
}
