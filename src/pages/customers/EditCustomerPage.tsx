// SPEC §2 Edit Customer (customers/{id}/edit, customers:update); D12 for a bad id.
import { CustomerForm } from './CustomerForm';
import { CustomerNotFound } from './CustomerNotFound';
import { useCustomerId } from './customer-id';

export default function EditCustomerPage() {
  const id = useCustomerId();
  return id === null ? <CustomerNotFound /> : <CustomerForm mode="edit" customerId={id} />;
}
