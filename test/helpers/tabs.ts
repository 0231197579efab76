// Fakes for the cross-tab world of D8: a LockManager that grants like a browser's, and tabs whose
// views of localStorage see each other's writes late, as tabs in separate processes do.
import { MemoryStorage } from './fake-api';

interface Waiter {
  grant: () => void;
}

/**
 * One browser's Web Locks for one lock name: exclusive, granted first come first served;
 * `ifAvailable` gets `null` while the lock is held; `signal` withdraws a waiting request;
 * `steal` takes the lock at once. `requests` records every request's options.
 */
export class FakeLocks {
  requests: LockOptions[] = [];
  private holder: symbol | null = null;
  private queue: Waiter[] = [];

  /** A tab that takes the lock and crashes: it is never released. */
  holdForever(): void {
    this.holder = Symbol('crashed tab');
  }

  readonly request = async <T>(name: string, opts: LockOptions, cb: (lock: Lock | null) => T | Promise<T>): Promise<T> => {
    this.requests.push(opts);
    const lock = { name, mode: 'exclusive' } as Lock;
    if (opts.ifAvailable && this.holder) return cb(null);
    const me = Symbol('request');
    if (opts.steal || !this.holder) this.holder = me;
    else await this.wait(me, opts.signal);
    try {
      return await cb(lock);
    } finally {
      if (this.holder === me) this.release();
    }
  };

  private wait(me: symbol, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          this.holder = me;
          resolve();
        },
      };
      this.queue.push(waiter);
      signal?.addEventListener('abort', () => {
        this.queue = this.queue.filter((w) => w !== waiter);
        reject(new DOMException('The request was aborted.', 'AbortError'));
      });
    });
  }

  private release(): void {
    this.holder = null;
    this.queue.shift()?.grant();
  }

  asManager(): LockManager {
    return this as unknown as LockManager;
  }
}

/**
 * localStorage shared by several tabs, each tab seeing the others' writes only `lagMs` later
 * (its own at once). `shared` is the settled truth, for assertions.
 */
export class LaggingStorage {
  readonly shared = new MemoryStorage();
  private views: MemoryStorage[] = [];
  constructor(private lagMs: number) {}

  tab(): MemoryStorage {
    const view = new MemoryStorage();
    for (const [k, v] of this.shared.map) view.map.set(k, v);
    const write = (k: string, v: string | null) => {
      if (v === null) this.shared.removeItem(k);
      else this.shared.setItem(k, v);
      for (const other of this.views) {
        if (other === view) continue;
        setTimeout(() => (v === null ? other.map.delete(k) : other.map.set(k, v)), this.lagMs);
      }
    };
    view.setItem = (k, v) => {
      view.map.set(k, String(v));
      write(k, String(v));
    };
    view.removeItem = (k) => {
      view.map.delete(k);
      write(k, null);
    };
    this.views.push(view);
    return view;
  }
}
