// SPEC §2 Add Customer (customers/new, customers:create).
import { CustomerForm } from './CustomerForm';

export default function AddCustomerPage() {
  return <CustomerForm mode="add" />;
}
