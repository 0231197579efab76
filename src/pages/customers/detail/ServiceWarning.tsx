// D48: a customer who must not be served is said at the top of the page, in words (not colour alone):
// 'Do not service' and the reason, announced once when the page shows it (role=alert).
import type { Customer } from '../../../../contract/customers';

export const MSG_NO_REASON = 'No reason was given.';

export function ServiceWarning({ customer }: { customer: Pick<Customer, 'do_not_service' | 'do_not_service_reason'> }) {
  if (!customer.do_not_service) return null;
  return (
    <div className="service-warning" role="alert">
      <span aria-hidden="true" className="service-warning-mark">
        !
      </span>
      <p>
        <strong>Do not service.</strong> <span className="service-warning-reason">{customer.do_not_service_reason || MSG_NO_REASON}</span>
      </p>
    </div>
  );
}
