// D34 D35: a long piece of work in one call (an import's 10,000 rows) gives the event loop back every
// few milliseconds, so other members' calls, timers and sockets run between its pieces. By time rather
// than by a count of rows: a row of one phase costs ten times a row of another.

/** The longest the work holds the event loop between two turns. */
const TURN_MS = 8;

/** A function to await once per item of the work: it returns at once until TURN_MS have passed, then yields a turn. */
export function takeTurns(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < TURN_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}
