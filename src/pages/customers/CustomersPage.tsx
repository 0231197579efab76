// SPEC §2 Customers list (customers, customers:view): search, a table of names, emails and phones,
// and paging, all kept in the URL. States: loading, empty, error with Retry.
import { useEffect } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../../contract/customers';
import { pageCount, useCustomersApi } from '../../api/customers';
import { isHttpError, isNetworkError } from '../../http/errors';
import { useQuery } from '../../query/use-query';
import { Link } from '../../router/Link';
import { navigate, useLocation } from '../../router/location';
import { useCan } from '../../session/use-session';
import { Page } from '../../ui/page';
import { Spinner } from '../../ui/spinner';
import { CustomerSearch } from './CustomerSearch';
import { CustomerTable, Pager } from './CustomerTable';
import { listHref, readListParams } from './list-params';

/** What went wrong, in words a person can act on. */
export function loadErrorMessage(error: unknown): string {
  if (isNetworkError(error)) return 'Could not reach the server. Check your connection and try again.';
  if (isHttpError(error, 401)) return 'Your session has ended. Please log in again.';
  if (isHttpError(error, 403)) return 'You do not have permission to view the customers of this organization.';
  return 'Could not load customers. Please try again.';
}

const plural = (n: number) => `${n} ${n === 1 ? 'customer' : 'customers'}`;

export default function CustomersPage() {
  const canCreate = useCan('customers:create');
  const { search } = useLocation();
  const { q, page } = readListParams(search);
  // While another page or search loads, the last list stays on screen (marked busy) instead of a spinner.
  const query = useQuery(useCustomersApi().list({ q, page, page_size: DEFAULT_PAGE_SIZE }), { keepPrevious: true });
  const data = query.data;
  const pages = data ? pageCount(data.count, DEFAULT_PAGE_SIZE) : 1;

  // A page past the end (an old link, a list that shrank) goes to the last page instead.
  const pastEnd = data !== undefined && !query.previous && data.count > 0 && page > pages;
  useEffect(() => {
    if (pastEnd) navigate(listHref({ q, page: pages }), { replace: true });
  }, [pastEnd, q, pages]);

  const go = (next: { q: string; page: number }, replace: boolean) => navigate(listHref(next), { replace });
  const retry = () => void query.refetch().catch(() => undefined);

  let body;
  if (query.status === 'error') {
    body = (
      <div className="card list-message" role="alert">
        <p>{loadErrorMessage(query.error)}</p>
        <button type="button" className="btn" onClick={retry} disabled={query.fetching} aria-busy={query.fetching || undefined}>
          Retry
        </button>
      </div>
    );
  } else if (!data || pastEnd) {
    body = <Spinner label="Loading customers…" showLabel />;
  } else if (data.count === 0) {
    body = (
      <div className="card list-message">
        {q ? (
          <>
            <p className="list-message-title">No customers match “{q}”.</p>
            <p className="muted">Try another name, email or phone number.</p>
            <button type="button" className="btn" onClick={() => go({ q: '', page: 1 }, true)}>
              Clear search
            </button>
          </>
        ) : (
          <p className="list-message-title">No customers yet.</p>
        )}
      </div>
    );
  } else {
    const busy = query.previous || query.fetching;
    body = (
      <>
        <CustomerTable customers={data.results} busy={busy} caption={`Customers, page ${page} of ${pages}`} />
        {pages > 1 && <Pager page={page} pages={pages} onPage={(next) => go({ q, page: next }, false)} />}
      </>
    );
  }

  return (
    <Page
      title="Customers"
      description="Everyone your organization works for."
      actions={
        // D9: only offered to people who may open it.
        canCreate && (
          <Link to="/customers/new" className="btn btn-primary">
            Add Customer
          </Link>
        )
      }
    >
      <div className="list-toolbar">
        {/* Searching starts again at page 1 and replaces the history entry: Back leaves the list. */}
        <CustomerSearch value={q} onSearch={(next) => go({ q: next, page: 1 }, true)} />
        <p className="list-summary" aria-live="polite">
          {data && !pastEnd && data.count > 0 ? (q ? `${plural(data.count)} ${data.count === 1 ? 'matches' : 'match'} “${q}”` : plural(data.count)) : ''}
        </p>
      </div>
      {body}
    </Page>
  );
}
