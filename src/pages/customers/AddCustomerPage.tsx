// SPEC §2 Add Customer (customers/new, customers:create; the route table guards it).
import { Page } from '../../ui/page';
import { CustomerForm } from './CustomerForm';

export default function AddCustomerPage() {
  return (
    <Page title="Add Customer">
      <CustomerForm mode="add" />
    </Page>
  );
}
