// A promise and its resolver, for the server and resilience suites: an operation held until the test lets it go.

/** `done` settles when `release()` is called. */
export function untilReleased(): { done: Promise<void>; release: () => void } {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { done, release };
}
