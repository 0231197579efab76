// SPEC §2 Edit Customer (customers/{id}/edit, customers:update; the route table guards it). D12: a bad
// id, or a customer that is missing, deleted or another organization's (404), is the not-found state.
// The form's code is a chunk of its own (the page ≤ 10 KB gzip, D26): its import starts when this
// module loads, beside the customer's data call, so neither waits for the other; the Add page carries
// the same form and holds its budget.
import { useState } from 'react';
import type { Customer } from '../../../contract/customers';
import { useCustomersApi } from '../../api/customers';
import { isAbortError, isHttpError } from '../../http/errors';
import { QUERY_FRESH_MS } from '../../query/cache';
import { useQuery } from '../../query/use-query';
import { Link, Navigate } from '../../router/Link';
import { customerHref } from '../../router/paths';
import { LoadError, Page } from '../../ui/page';
import { earlyModule, useEarlyModule } from '../../ui/early-module';
import { Spinner } from '../../ui/spinner';
import { CustomerNotFound } from './CustomerNotFound';
import { useCustomerId } from './customer-id';
import { useCustomFields } from '../../api/custom-fields';

// The form's code loads beside the customer's data call (ui/early-module.ts).
const FORM = earlyModule(() => import('./CustomerForm'));

export default function EditCustomerPage() {
  const id = useCustomerId();
  return id === null ? <CustomerNotFound /> : <EditCustomer key={id} id={id} />;
}

function EditCustomer({ id }: { id: number }) {
  const api = useCustomersApi();
  const q = useQuery(api.get(id));
  useCustomFields('customer'); // D56: the form's fields asked for beside the customer, not after it
  const { mod: form, error: formError, retry: retryForm } = useEarlyModule(FORM);
  // D31: the form starts from a fresh record and keeps it: a later refetch never replaces what the
  // person is typing; a stale version is the save's conflict to show. A record cached longer than the
  // freshness window (D14) is not a start: its refetch is (else a save meets a conflict nobody caused).
  const [start, setStart] = useState<Customer | null>(null);
  const fresh = Date.now() - q.updatedAt < QUERY_FRESH_MS;
  if (!start && q.status === 'success' && !q.fetching && fresh && q.data) setStart(q.data);

  if (start && form) {
    return (
      <Page title="Edit Customer" description={start.name}>
        <form.CustomerForm mode="edit" customer={start} />
      </Page>
    );
  }
  // D49: a merged customer's address goes to its customer page, which leads on to the survivor's.
  if (isHttpError(q.error, 404)) return q.error.code === 'merged' ? <Navigate to={customerHref(id)} /> : <CustomerNotFound id={id} shown={q.data !== undefined} />;
  const failed = q.status === 'error' && !q.fetching && !isAbortError(q.error);
  return (
    <Page
      title="Edit Customer"
      actions={
        <Link to={customerHref(id)} className="btn">
          Cancel
        </Link>
      }
    >
      {failed ? (
        <LoadError what="this customer" error={q.error} onRetry={() => void q.refetch().catch(() => undefined)} />
      ) : formError && !form ? (
        <LoadError what="the form" error={formError} onRetry={retryForm} />
      ) : (
        <Spinner label="Loading customer…" />
      )}
    </Page>
  );
}
