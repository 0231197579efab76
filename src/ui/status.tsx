// D22: a customer's status in the app's words and tone, the same on every screen (list, record, form,
// dashboard cards). Its name alone ('Lead') is CUSTOMER_STATUS_LABELS in the contract, which the form
// and the filters use; the tone is the `data-status` attribute, coloured by app.css in both themes.
import { CUSTOMER_STATUS_LABELS, type CustomerStatus } from '../../contract/customers';

/** How a count names it: "1 lead", "3 leads", "7 inactive". */
export const STATUS_COUNT_WORDS: Readonly<Record<CustomerStatus, { one: string; many: string }>> = {
  lead: { one: 'lead', many: 'leads' },
  active: { one: 'active', many: 'active' },
  inactive: { one: 'inactive', many: 'inactive' },
};

export function StatusBadge({ status }: { status: CustomerStatus }) {
  return (
    <span className="status" data-status={status}>
      {CUSTOMER_STATUS_LABELS[status]}
    </span>
  );
}
