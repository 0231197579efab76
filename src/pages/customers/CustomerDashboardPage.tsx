// SPEC §2 Customer Dashboard (customers/{id}, customers:view): D22 the record, D24 notes and timeline,
// D25 delete with Undo. D12: a bad id, and a missing, deleted or other organization's customer (the
// server answers 404 for each), show the not-found state. D9: Edit and Delete only for who may.
// D48 the do-not-service warning on top; D46 D47 the locations and contacts beside the record (parts/).
import type { Customer } from '../../../contract/customers';
import { useCustomersApi } from '../../api/customers';
import { isHttpError } from '../../http/errors';
import { useQuery } from '../../query/use-query';
import { Link } from '../../router/Link';
import { editCustomerHref } from '../../router/paths';
import { useCan } from '../../session/use-session';
import { LoadError, Page } from '../../ui/page';
import { Spinner } from '../../ui/spinner';
import { StatusBadge } from '../../ui/status';
import { CustomerNotFound } from './CustomerNotFound';
import { useCustomerId } from './customer-id';
import { CustomerDetails } from './detail/CustomerDetails';
import { DeleteCustomer } from './detail/DeleteCustomer';
import { LazyTimeline } from './detail/lazy-timeline';
import { MergedNote, NotFoundOrMerged } from './merge/MergedNote';
import { MergeWith } from './merge/MergeWith';
import { ServiceWarning } from './detail/ServiceWarning';
import { LazyParts } from './parts/lazy-parts';
import { useCustomFields } from '../../api/custom-fields';

/** The route's own title, shown until the customer's name is known. */
export const PAGE_TITLE = 'Customer Dashboard';

function Loaded({ customer }: { customer: Customer }) {
  const canEdit = useCan('customers:update');
  const canDelete = useCan('customers:delete');
  const canMerge = useCan('customers:merge'); // D49
  return (
    <Page
      title={customer.name}
      description={
        <>
          <StatusBadge status={customer.status} />
          {customer.company && <span className="customer-company">{customer.company}</span>}
        </>
      }
      actions={
        (canEdit || canDelete || canMerge) && (
          <>
            {canEdit && (
              <Link to={editCustomerHref(customer.id)} className="btn btn-primary">
                Edit
              </Link>
            )}
            {canMerge && <MergeWith customer={customer} />}
            {canDelete && <DeleteCustomer customer={customer} />}
          </>
        )
      }
    >
      <MergedNote customerId={customer.id} />
      <ServiceWarning customer={customer} />
      <div className="customer-layout">
        <div className="customer-side">
          <CustomerDetails customer={customer} />
          <LazyParts customer={customer} />
        </div>
        <LazyTimeline customerId={customer.id} />
      </div>
    </Page>
  );
}

function CustomerView({ id }: { id: number }) {
  const query = useQuery(useCustomersApi().get(id));
  useCustomFields('customer'); // D56: the fields' labels asked for beside the customer
  // A 404 wins over data still in the cache: the customer was deleted meanwhile (D25).
  if (isHttpError(query.error, 404)) return <NotFoundOrMerged error={query.error} name={query.data?.name} id={id} shown={query.data !== undefined} />; // D49 D59
  if (query.data) return <Loaded customer={query.data} />;
  return (
    <Page title={PAGE_TITLE}>
      {query.status === 'error' ? (
        <LoadError what="this customer" error={query.error} busy={query.fetching} onRetry={() => void query.refetch().catch(() => undefined)} />
      ) : (
        <Spinner label="Loading customer…" />
      )}
    </Page>
  );
}

export default function CustomerDashboardPage() {
  const id = useCustomerId();
  if (id === null) return <CustomerNotFound />;
  // Keyed by id: another customer's page starts afresh (its own timeline pages, no open dialog).
  return <CustomerView key={id} id={id} />;
}
