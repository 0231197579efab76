// D46 D47: the customer page's locations and contacts sections with their forms, a chunk of its own
// (lazy-parts.tsx) so the page's chunk stays under its budget. Changes need customers:update (D9).
import type { Customer } from '../../../../contract/customers';
import { useCustomerPartsApi } from '../../../api/customer-parts';
import { useCan } from '../../../session/use-session';
import { Contacts } from './Contacts';
import { Locations } from './Locations';

export function CustomerParts({ customer }: { customer: Customer }) {
  const canEdit = useCan('customers:update');
  const api = useCustomerPartsApi(customer.id);
  return (
    <>
      <Locations customerId={customer.id} locations={customer.locations} canEdit={canEdit} api={api} />
      <Contacts customerId={customer.id} contacts={customer.contacts} canEdit={canEdit} api={api} />
    </>
  );
}
