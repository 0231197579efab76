// The frame every page inside the shell uses: a heading, an optional line under it, actions.
import { lazy, Suspense, type ReactNode } from 'react';
import { whenIdle } from '../lib/idle';
import type { LoadErrorProps } from './load-error';

export function Page({ title, description, actions, children }: { title: string; description?: ReactNode; actions?: ReactNode; children?: ReactNode }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <div>
          <h1 id="page-title">{title}</h1>
          {description && <p className="page-description">{description}</p>}
        </div>
        {actions && <div className="page-actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

/** SPEC §1: the SMS, email, calls and jobs pages show only placeholder text. */
export function PlaceholderPage({ title, text }: { title: string; text: string }) {
  return (
    <Page title={title}>
      <div className="card placeholder">
        <p>{text}</p>
      </div>
    </Page>
  );
}

// SPEC §8 a part that could not load says so (load-error.tsx). Rarely shown, so its code is fetched once
// the browser is idle after the first page rather than with each page; should even that fail, the page
// area says the code could not load, with Retry (D40, app/page-load.tsx).
const loadLoadError = () => import('./load-error');
whenIdle(() => void loadLoadError().catch(() => undefined));
const LazyLoadError = lazy(() => loadLoadError().then((m) => ({ default: m.LoadError })));

export function LoadError(props: LoadErrorProps) {
  return (
    <Suspense fallback={null}>
      <LazyLoadError {...props} />
    </Suspense>
  );
}
