// D22: the customer's contact details and billing address (D46: the service locations are listed apart),
// D59 who it is assigned to, D48 its type and lead source, and who added and last changed it (the name, status and company head the page).
// D56 the set custom values with their labels, in the fields' order.
import type { Customer, PersonRef } from '../../../../contract/customers';
import { mailtoHref } from '../../../lib/contact-links';
import { Link } from '../../../router/Link';
import { PhoneLink } from '../PhoneLink';
import { CustomValueList, setFields } from '../custom/CustomValueList';
import { useCustomFields } from '../../../api/custom-fields';
import { When } from '../../../ui/when';

/** The address lines that are filled in: street; city, region and postal code; country. */
export function addressLines(c: Customer): string[] {
  const place = [c.city, [c.region, c.postal_code].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [c.address_line, place, c.country].filter((l): l is string => Boolean(l));
}

function ByWhom({ verb, who, at }: { verb: string; who: PersonRef | null; at: string }) {
  return (
    <p>
      {verb} {who ? `by ${who.name} ` : ''}
      <When at={at} />
    </p>
  );
}

export function CustomerDetails({ customer: c }: { customer: Customer }) {
  const address = addressLines(c);
  const fields = useCustomFields('customer').fields ?? [];
  return (
    <section className="card detail-card" aria-labelledby="contact-title">
      <h2 id="contact-title">Contact</h2>
      <dl className="detail-list">
        {c.company && (
          <>
            <dt>Company</dt>
            <dd>{c.company}</dd>
          </>
        )}
        <dt>Email</dt>
        <dd>{c.email ? <a href={mailtoHref(c.email)}>{c.email}</a> : <span className="muted">None</span>}</dd>
        <dt>Phone</dt>
        <dd>{c.phone ? <PhoneLink phone={c.phone} /> : <span className="muted">None</span>}</dd>
        {/* D59 */}
        <dt>Assigned to</dt>
        <dd>{c.assigned_to ? c.assigned_to.name : <span className="muted">Unassigned</span>}</dd>
        <dt>Type</dt>
        <dd>{c.type === 'commercial' ? 'Commercial' : 'Residential'}</dd>
        {c.lead_source && (
          <>
            <dt>Lead source</dt>
            <dd>{c.lead_source}</dd>
          </>
        )}
        <dt>Tags</dt>
        <dd>
          {c.tags.length ? (
            <ul className="tag-list">
              {c.tags.map((t) => (
                <li key={t}>
                  {/* A tag leads to the list filtered by it (D26). */}
                  <Link className="tag" to={`/customers?tag=${encodeURIComponent(t)}`}>
                    {t}
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <span className="muted">None</span>
          )}
        </dd>
      </dl>

      <h2 id="address-title">Billing address</h2>
      {address.length ? (
        <address aria-labelledby="address-title" className="detail-address">
          {address.map((line, i) => (
            <span key={i}>{line}</span>
          ))}
        </address>
      ) : (
        <p className="muted">No address yet.</p>
      )}

      {setFields(fields, c.custom).length > 0 && (
        <>
          <h2 id="custom-title">More details</h2>
          <CustomValueList fields={fields} custom={c.custom} />
        </>
      )}

      <div className="detail-meta">
        <ByWhom verb="Added" who={c.created_by} at={c.created_at} />
        {c.updated_at !== c.created_at && <ByWhom verb="Last changed" who={c.updated_by} at={c.updated_at} />}
      </div>
    </section>
  );
}
