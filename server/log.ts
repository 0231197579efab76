// One-line logs. Callers pass only what is safe to print: never tokens, passwords or request bodies.

export interface Logger {
  info(message: string): void;
  error(message: string): void;
}

export const consoleLogger: Logger = {
  info: (message) => process.stdout.write(`${message}\n`),
  error: (message) => process.stderr.write(`${message}\n`),
};

export const silentLogger: Logger = { info: () => {}, error: () => {} };

/** An error's name, message and stack, for the error log. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}
