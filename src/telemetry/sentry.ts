// D13 error reporting: Sentry with tracing (sample rate 1, SPEC §7) and session replay with all
// text and inputs masked. Imported only through a dynamic import() from ./index.ts, so it is a
// chunk of its own that loads after first render.
import { browserTracingIntegration, captureException, getClient, init, replayIntegration, type BrowserOptions } from '@sentry/browser';
import { scrub, scrubBreadcrumb, scrubRecordingEvent, scrubReplayEvent } from './scrub';

/** SPEC §7 / §9: trace sampling rate 1. */
export const TRACES_SAMPLE_RATE = 1;
/** Share of sessions recorded from the start, and of sessions recorded once an error happens. */
export const REPLAY_SESSION_SAMPLE_RATE = 0.1;
export const REPLAY_ON_ERROR_SAMPLE_RATE = 1;

export function sentryOptions(dsn: string): BrowserOptions {
  return {
    dsn,
    // D13: collect no user info, cookies, headers or bodies in the first place; scrubbing below is the
    // second line of defence for whatever still carries a secret (messages, URLs, extras).
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: false,
      httpBodies: [],
      urlQueryParams: { deny: ['access_token', 'refresh_token', 'id_token', 'token', 'password'] },
    },
    tracesSampleRate: TRACES_SAMPLE_RATE,
    replaysSessionSampleRate: REPLAY_SESSION_SAMPLE_RATE,
    replaysOnErrorSampleRate: REPLAY_ON_ERROR_SAMPLE_RATE,
    integrations: [
      browserTracingIntegration(),
      // D13: nothing a person types or reads is recorded; images and media are blocked.
      // D37: recorded URLs (page href, navigations) lose the token of /invite/{token} and the like.
      replayIntegration({ maskAllText: true, maskAllInputs: true, blockAllMedia: true, beforeAddRecordingEvent: scrubRecordingEvent }),
    ],
    beforeSend: (event) => scrub(event),
    // D37: a page load's transaction is named after its URL (/invite/{token}).
    beforeSendTransaction: (event) => scrub(event),
    beforeBreadcrumb: (crumb) => scrubBreadcrumb(crumb),
    beforeSendSpan: (span) => scrub(span),
  };
}

/** Starts Sentry; returns the function that reports an error. `extra` is for tests (transport, integrations). */
export function initSentry(dsn: string, extra: Partial<BrowserOptions> = {}): (error: unknown) => void {
  init({ ...sentryOptions(dsn), ...extra });
  // D37: a replay's event lists the URLs it saw; no before-send option reaches it, this hook does.
  getClient()?.on('preprocessEvent', (event) => {
    if (event.type === 'replay_event') Object.assign(event, scrubReplayEvent({ ...event }));
  });
  return (error) => void captureException(error);
}
