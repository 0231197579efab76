// The dashboard's customer card: the organization's total, from the list endpoint with page_size=1
// (the answer's count), and a link to the list. Shown only with customers:view (D9).
import { useCustomersApi } from '../../api/customers';
import { useQuery } from '../../query/use-query';
import { Link } from '../../router/Link';
import { useSession } from '../../session/use-session';

/** Only the count is wanted; one row is the least the endpoint sends. */
const COUNT_ONLY = { page: 1, page_size: 1 };
const countFormat = new Intl.NumberFormat();

export function CustomerSummary() {
  const { currentOrg } = useSession();
  const query = useQuery(useCustomersApi().list(COUNT_ONLY));
  const retry = () => void query.refetch().catch(() => undefined);

  let value;
  if (query.data) value = <p className="stat-value">{countFormat.format(query.data.count)}</p>;
  else if (query.status === 'error') {
    value = (
      <p className="stat-error">
        Could not load the total.{' '}
        <button type="button" className="link-btn" onClick={retry} disabled={query.fetching}>
          Retry
        </button>
      </p>
    );
  } else {
    value = (
      <p className="stat-value stat-loading" aria-busy="true">
        <span aria-hidden="true">…</span>
        <span className="sr-only">Loading</span>
      </p>
    );
  }

  return (
    <section className="card stat-card" aria-labelledby="customer-summary-title">
      <h2 id="customer-summary-title" className="stat-label">
        Customers
      </h2>
      {value}
      <p className="stat-note">{currentOrg ? `in ${currentOrg.name}` : 'in this organization'}</p>
      {/* Named apart from the sidebar's 'Customers' link. */}
      <Link to="/customers" className="stat-link">
        View customer list
      </Link>
    </section>
  );
}
