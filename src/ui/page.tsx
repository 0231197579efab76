// The frame every page inside the shell uses: a heading, an optional line under it, actions.
import type { ReactNode } from 'react';

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
