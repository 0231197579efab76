// D51 D52 My account (/account, from the user menu; with or without an organization, AccountAlone.tsx):
// the person's profile, password, sessions and theme, one section each (sections.ts), each its own
// form and its own chunk. Nothing here is an organization's: every call goes without one.
import { lazy, Suspense } from 'react';
import { useAccountApi } from '../../api/account';
import { useQuery } from '../../query/use-query';
import { LoadError, Page } from '../../ui/page';
import { Spinner } from '../../ui/spinner';
import { SECTIONS } from './sections';

// Each section's code starts loading with the page's, beside the account's call rather than after it
// (a failed load is tried again when the section renders).
const LOADED = SECTIONS.map((s) => (void s.load().catch(() => undefined), { ...s, Body: lazy(s.load) }));

export default function AccountPage() {
  const api = useAccountApi();
  const account = useQuery(api.account());

  let body;
  if (account.status === 'error' && !account.data)
    body = <LoadError what="your account" error={account.error} explained busy={account.fetching} onRetry={() => void account.refetch().catch(() => undefined)} />;
  else if (!account.data) body = <Spinner label="Loading your account…" showLabel />;
  else {
    const data = account.data;
    body = LOADED.map(({ id, title, Body, own }) =>
      own ? (
        <Suspense key={id} fallback={<Spinner />}>
          <Body account={data} />
        </Suspense>
      ) : (
        <section key={id} className="card account-section" aria-labelledby={`${id}-title`}>
          <h2 id={`${id}-title`} tabIndex={-1}>
            {title}
          </h2>
          <Suspense fallback={<Spinner />}>
            <Body account={data} />
          </Suspense>
        </section>
      ),
    );
  }
  return (
    <Page title="My account" description="Your name, email and password, two-step sign-in, where you are signed in, and how the app looks.">
      {body}
    </Page>
  );
}
