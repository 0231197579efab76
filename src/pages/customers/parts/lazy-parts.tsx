// D46 D47: the locations and contacts sections are a chunk of their own (CustomerParts.tsx). As with the
// timeline (detail/lazy-timeline.tsx), its import starts when the page's module loads, in parallel with
// the customer's data call, so by the time the customer is shown it is usually here and the sections
// render at once. Until then they stand with their headings and loading words; if the code cannot load,
// they say so with Retry (the rest of the page works on).
import type { ReactNode } from 'react';
import type { Customer } from '../../../../contract/customers';
import { earlyModule, useEarlyModule } from '../../../ui/early-module';
import { LoadError } from '../../../ui/page';
import { Spinner } from '../../../ui/spinner';

const PARTS = earlyModule(() => import('./CustomerParts'));

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card detail-card part-section" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

export function LazyParts({ customer }: { customer: Customer }) {
  const { mod, error, retry } = useEarlyModule(PARTS);
  const failed = error !== null;

  if (mod) return <mod.CustomerParts customer={customer} />;
  return (
    <>
      <Frame title="Service locations">
        {failed ? <LoadError inline what="the locations and contacts" error={null} onRetry={retry} /> : <Spinner label="Loading the locations…" />}
      </Frame>
      <Frame title="Contacts">{failed ? null : <Spinner label="Loading the contacts…" />}</Frame>
    </>
  );
}
