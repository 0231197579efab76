// D25: the 'Deleted' view's table, shown only to who may restore and only in that view, so its code
// loads when the view is first shown (beside the view's data call), not with the list.
import type { CustomerListItem } from '../../../contract/customers';
import { Day } from '../../ui/when';
import type { TableProps } from './CustomerTable';

const NONE = '—';

/** D25: the 'Deleted' view: who deleted whom and when, each with Restore. */
export function DeletedTable({ customers, busy, caption, restoring, onRestore }: TableProps & { restoring: number | null; onRestore: (c: CustomerListItem) => void }) {
  return (
    <div className="table-wrap card list-table" data-busy={busy || undefined}>
      <table className="data-table" aria-busy={busy || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Deleted</th>
            <th scope="col">Deleted by</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {customers.map((c) => (
            <tr key={c.id}>
              <td className="cell-name">
                {/* A deleted customer has no page to open (D25: 404 until restored). */}
                <span className="cell-title">{c.name}</span>
                {c.company && <span className="cell-sub">{c.company}</span>}
              </td>
              <td className="cell-email" data-label="Email">
                {c.email ?? NONE}
              </td>
              <td className="cell-date" data-label="Deleted">
                <Day fallback={NONE} at={c.deleted_at} />
              </td>
              <td data-label="Deleted by">{c.deleted_by?.name ?? NONE}</td>
              <td className="cell-actions">
                <button
                  type="button"
                  className="btn btn-sm"
                  aria-disabled={restoring !== null || undefined}
                  aria-busy={restoring === c.id || undefined}
                  onClick={() => onRestore(c)}
                >
                  {restoring === c.id ? 'Restoring…' : 'Restore'}
                  <span className="sr-only"> {c.name}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
