// The customers list's table and pager. Under 640px the rows stack (see .data-table in app.css).
import type { CustomerListItem } from '../../../contract/customers';
import { Link } from '../../router/Link';

const NONE = '—';

export function CustomerTable({ customers, busy, caption }: { customers: CustomerListItem[]; busy: boolean; caption: string }) {
  return (
    <div className="table-wrap card" data-busy={busy || undefined}>
      <table className="data-table" aria-busy={busy || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Phone</th>
          </tr>
        </thead>
        <tbody>
          {customers.map((c) => (
            <tr key={c.id}>
              <td className="cell-name">
                <Link to={`/customers/${c.id}`}>{c.name}</Link>
              </td>
              <td className="cell-email">{c.email ?? NONE}</td>
              <td className="cell-phone">{c.phone ?? NONE}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="btn" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="pager-status">
        Page {page} of {pages}
      </span>
      <button type="button" className="btn" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
