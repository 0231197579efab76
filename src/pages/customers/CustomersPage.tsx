// SPEC §2 Customers list (customers, customers:view). The list itself is not specified yet.
import { Link } from '../../router/Link';
import { useSession } from '../../session/use-session';
import { Page } from '../../ui/page';

export default function CustomersPage() {
  const { permissions } = useSession();
  return (
    <Page
      title="Customers"
      description="Everyone your organization works for."
      actions={
        // D9: only offered to people who may open it.
        permissions.includes('customers:create') && (
          <Link to="/customers/new" className="btn btn-primary">
            Add Customer
          </Link>
        )
      }
    />
  );
}
