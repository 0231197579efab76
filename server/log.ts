// One-line logs. Callers pass only what is safe to print: never tokens, passwords or request bodies.

export interface Logger {
  info(message: string): void;
  error(message: string): void;
}

/**
 * D35: info lines of one turn of the event loop are written together, once it has run (a flood's 700
 * access lines are a few writes, not 700); an error line, and the process's exit, write them first.
 */
let pending: string[] = [];
function flush(): void {
  if (pending.length === 0) return;
  const text = pending.join('');
  pending = [];
  process.stdout.write(text);
}
let exitHooked = false;

export const consoleLogger: Logger = {
  info: (message) => {
    if (pending.length === 0) setImmediate(flush);
    if (!exitHooked) {
      exitHooked = true;
      process.on('exit', flush);
    }
    pending.push(`${message}\n`);
  },
  error: (message) => {
    flush();
    process.stderr.write(`${message}\n`);
  },
};

/** An error's name, message and stack, for the error log. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}
