// A React-free external store: state in a closure, listeners in a Set, Object.is before notifying.
// React reads it through useSyncExternalStore; everything else calls getState/subscribe directly.

export interface Store<T> {
  getState(): T;
  setState(next: T | ((prev: T) => T)): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    setState(next) {
      const value = typeof next === 'function' ? (next as (prev: T) => T)(state) : next;
      if (Object.is(value, state)) return;
      state = value;
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Shallow-merges a partial into an object store, notifying only when a field changed. */
export function patch<T extends object>(store: Store<T>, partial: Partial<T>): void {
  store.setState((prev) => {
    for (const k in partial) if (!Object.is(prev[k], partial[k])) return { ...prev, ...partial };
    return prev;
  });
}
