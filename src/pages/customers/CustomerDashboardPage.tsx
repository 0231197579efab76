// SPEC §2 Customer Dashboard (customers/{id}, customers:view); D12 for a bad id.
import { Link } from '../../router/Link';
import { useCan } from '../../session/use-session';
import { Page } from '../../ui/page';
import { CustomerNotFound } from './CustomerNotFound';
import { useCustomerId } from './customer-id';

export default function CustomerDashboardPage() {
  const id = useCustomerId();
  const canEdit = useCan('customers:update');
  if (id === null) return <CustomerNotFound />;
  return (
    <Page
      title="Customer Dashboard"
      description={`Customer #${id}`}
      actions={
        canEdit && (
          <Link to={`/customers/${id}/edit`} className="btn">
            Edit Customer
          </Link>
        )
      }
    />
  );
}
