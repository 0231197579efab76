// D13: error reporting loads after first render, as its own chunk, and only with a DSN. Errors from
// before it loaded are kept here and reported once it has. No Sentry import in this file.

/** Errors kept while the reporter loads; beyond this they are dropped (a crash loop must not eat memory). */
export const MAX_BUFFERED_ERRORS = 50;

type Report = (error: unknown) => void;
interface Reporter {
  initSentry(dsn: string): Report;
}

const buffer: unknown[] = [];
let report: Report | null = null;
let started = false;
let target: Window | null = null;

function keep(error: unknown): void {
  if (report) report(error);
  else if (buffer.length < MAX_BUFFERED_ERRORS) buffer.push(error);
}
const onError = (e: ErrorEvent) => keep(e.error ?? e.message);
const onRejection = (e: PromiseRejectionEvent) => keep(e.reason);

/** Starts keeping uncaught errors and unhandled rejections (call as early as possible; idempotent). */
export function bufferEarlyErrors(win: Window = window): void {
  if (target) return;
  target = win;
  win.addEventListener('error', onError);
  win.addEventListener('unhandledrejection', onRejection);
}

function stopBuffering(): void {
  target?.removeEventListener('error', onError);
  target?.removeEventListener('unhandledrejection', onRejection);
  target = null;
}

/** Reports an error caught elsewhere (the error boundary); kept until the reporter has loaded. */
export function captureError(error: unknown): void {
  if (report || target) keep(error);
}

const configuredDsn = (): string | undefined => (globalThis as { __APP_CONFIG__?: { sentryDsn?: unknown } }).__APP_CONFIG__?.sentryDsn as string | undefined;

/**
 * Loads error reporting when a DSN is configured (window.__APP_CONFIG__.sentryDsn). Resolves to
 * true once it runs; without a DSN nothing is loaded and nothing is kept.
 */
export async function startTelemetry({
  dsn = configuredDsn(),
  load = () => import('./sentry'),
}: {
  dsn?: string;
  load?: () => Promise<Reporter>;
} = {}): Promise<boolean> {
  if (started) return report !== null;
  started = true;
  if (typeof dsn !== 'string' || !dsn) {
    stopBuffering();
    buffer.length = 0;
    return false;
  }
  bufferEarlyErrors();
  try {
    const reporter = await load();
    const send = reporter.initSentry(dsn);
    stopBuffering(); // Sentry's own global handlers take over from here
    report = send;
    for (const error of buffer.splice(0)) send(error);
    return true;
  } catch {
    stopBuffering(); // the chunk failed to load (offline, blocked): carry on without reporting
    buffer.length = 0;
    return false;
  }
}

/** Test seam: forget everything. */
export function resetTelemetry(): void {
  stopBuffering();
  buffer.length = 0;
  report = null;
  started = false;
}
