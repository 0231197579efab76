/** Resolves after `ms` milliseconds (under fake timers, when the test moves the clock). */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
