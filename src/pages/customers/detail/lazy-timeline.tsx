// D24: the notes-and-history section is below the record and not needed for the first paint, so its
// code (the timeline, the notes, the audit words) is a chunk of its own (each page ≤ 10 KB
// gzip). Its import starts when the page's module loads, alongside the page's own data call, so no
// request waits for another; by the time the customer is shown it is usually here and renders at once.
// Until then the section shows its heading and the timeline's own loading words; if the code cannot
// load, the section says so with Retry (the rest of the page works on).
import { useEffect, useState } from 'react';
import { LoadError } from '../../../ui/page';
import { Spinner } from '../../../ui/spinner';
import { TimelineSection } from './timeline-section';

type Module = typeof import('./Timeline');

let loaded: Module | null = null;
let loading: Promise<Module> | null = null;
/** Loads the timeline's code once at a time; a failed load may be asked for again. */
const load = (): Promise<Module> =>
  (loading ??= import('./Timeline').then(
    (m) => (loaded = m),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  ));
// Started with the page's module, in parallel with the customer's data call.
void load().catch(() => undefined);

export function LazyTimeline({ customerId }: { customerId: number }) {
  const [mod, setMod] = useState(loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (mod || failed) return undefined;
    let live = true;
    load().then(
      (m) => live && setMod(m),
      () => live && setFailed(true),
    );
    return () => void (live = false);
  }, [mod, failed]);

  if (mod) return <mod.Timeline customerId={customerId} />;
  return (
    <TimelineSection>
      {failed ? <LoadError inline what="the timeline" error={null} onRetry={() => setFailed(false)} /> : <Spinner label="Loading the timeline…" />}
    </TimelineSection>
  );
}
