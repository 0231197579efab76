// SPEC §2 Add Customer (customers/new, customers:create; the route table guards it). A lazily loaded
// chunk of its own with the form (app/routes.ts); ui/first-bundle.ts comes first, as in app/lazy.ts.
import '../../ui/first-bundle';
import { Page } from '../../ui/page';
import { CustomerForm } from './CustomerForm';

export default function AddCustomerPage() {
  return (
    <Page title="Add Customer">
      <CustomerForm mode="add" />
    </Page>
  );
}
