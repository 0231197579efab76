// D34's event-loop budget, measured by `npm run bench:fair` (docs/performance.md, "Fair share"). Only
// when the bench starts the server with EVENT_LOOP_REPORT=1 does the process sample its event-loop
// delay; each SIGUSR2 then prints one JSON line with the figures since the previous one and starts
// over. Unset (production), nothing is sampled, no signal is handled and nothing is served: the figures
// never leave the process's own output.
import { monitorEventLoopDelay } from 'node:perf_hooks';

export const EVENT_LOOP_SIGNAL = 'SIGUSR2';
/** How often the delay is sampled (ms); a block shorter than this can go unseen. */
const RESOLUTION_MS = 10;

export interface EventLoopReport {
  event_loop_delay_ms: { max: number; p99: number; mean: number; samples: number };
}

/** Starts sampling when `env.EVENT_LOOP_REPORT` is "1"; returns a stop function, or null when off. */
export function reportEventLoopDelay(env: NodeJS.ProcessEnv, print: (line: string) => void = console.log): (() => void) | null {
  if (env.EVENT_LOOP_REPORT !== '1') return null;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const report = () => {
    const empty = histogram.count === 0;
    const line: EventLoopReport = {
      event_loop_delay_ms: {
        max: empty ? 0 : ms(histogram.max),
        p99: empty ? 0 : ms(histogram.percentile(99)),
        mean: empty ? 0 : ms(histogram.mean),
        samples: histogram.count,
      },
    };
    print(JSON.stringify(line));
    histogram.reset();
  };
  // A signal that arrives during a long block is handled right after it, before the sampling timer has
  // recorded that block: report a little later, once the sampler has run.
  const onSignal = () => void setTimeout(report, 2 * RESOLUTION_MS);
  process.on(EVENT_LOOP_SIGNAL, onSignal);
  return () => {
    process.off(EVENT_LOOP_SIGNAL, onSignal);
    histogram.disable();
  };
}
