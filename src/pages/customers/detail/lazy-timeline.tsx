// D24: the notes-and-history section is below the record and not needed for the first paint, so its
// code (the timeline, the notes, the audit words) is a chunk of its own (each page ≤ 10 KB
// gzip). Its import starts when the page's module loads, alongside the page's own data call, so no
// request waits for another; by the time the customer is shown it is usually here and renders at once.
// Until then the section shows its heading and the timeline's own loading words; if the code cannot
// load, the section says so with Retry (the rest of the page works on).
import { earlyModule, useEarlyModule } from '../../../ui/early-module';
import { LoadError } from '../../../ui/page';
import { Spinner } from '../../../ui/spinner';
import { TimelineSection } from './timeline-section';

const TIMELINE = earlyModule(() => import('./Timeline'));

export function LazyTimeline({ customerId }: { customerId: number }) {
  const { mod, error, retry } = useEarlyModule(TIMELINE);
  const failed = error !== null;

  if (mod) return <mod.Timeline customerId={customerId} />;
  return <TimelineSection>{failed ? <LoadError inline what="the timeline" error={null} onRetry={retry} /> : <Spinner label="Loading the timeline…" />}</TimelineSection>;
}
