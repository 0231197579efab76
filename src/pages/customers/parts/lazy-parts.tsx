// D46 D47: the locations and contacts sections are a chunk of their own (CustomerParts.tsx). As with the
// timeline (detail/lazy-timeline.tsx), its import starts when the page's module loads, in parallel with
// the customer's data call, so by the time the customer is shown it is usually here and the sections
// render at once. Until then they stand with their headings and loading words; if the code cannot load,
// they say so with Retry (the rest of the page works on).
import { useEffect, useState, type ReactNode } from 'react';
import type { Customer } from '../../../../contract/customers';
import { LoadError } from '../../../ui/page';
import { Spinner } from '../../../ui/spinner';

type Module = typeof import('./CustomerParts');

let loaded: Module | null = null;
let loading: Promise<Module> | null = null;
/** Loads the sections' code once at a time; a failed load may be asked for again. */
const load = (): Promise<Module> =>
  (loading ??= import('./CustomerParts').then(
    (m) => (loaded = m),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  ));
// Started with the page's module, in parallel with the customer's data call.
void load().catch(() => undefined);

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card detail-card part-section" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

export function LazyParts({ customer }: { customer: Customer }) {
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

  if (mod) return <mod.CustomerParts customer={customer} />;
  return (
    <>
      <Frame title="Service locations">
        {failed ? <LoadError inline what="the locations and contacts" error={null} onRetry={() => setFailed(false)} /> : <Spinner label="Loading the locations…" />}
      </Frame>
      <Frame title="Contacts">{failed ? null : <Spinner label="Loading the contacts…" />}</Frame>
    </>
  );
}
