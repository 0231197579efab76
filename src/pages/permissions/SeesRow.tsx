// D59 D61: what each role sees of customers, a row of the matrix: a radio pair per role, named like the
// checkboxes ('member: Sees'), in the contract's words; the owner's row is fixed at all customers.
import { CUSTOMER_SCOPE_WORDS } from '../../../contract/permission-words';
import { CUSTOMER_SCOPES, type CustomerScope, type Permission, type Role } from '../../../contract/permissions';

/** D41: what the page edits: the matrix, and what each role sees; an older draft was the matrix alone. */
export type Edit = { matrix: Record<Role, Permission[]>; scopes: Partial<Record<Role, CustomerScope>> };
export const asEdit = (d: unknown): Edit | null =>
  !d || typeof d !== 'object' ? null : 'matrix' in d ? { ...(d as Edit), scopes: (d as Edit).scopes ?? {} } : { matrix: d as Edit['matrix'], scopes: {} };

/** Each role's scope as shown (the draft's, else the server's), and a change of one. */
export interface Sees {
  of: (role: Role) => CustomerScope;
  set: (role: Role, scope: CustomerScope) => void;
}

/** 'all customers', 'only customers assigned to them': the words after 'Sees: '. */
export const scopeWords = (s: CustomerScope) => CUSTOMER_SCOPE_WORDS[s].replace(/^Sees: /, '');

export function SeesRow({ roles, fixed, editable, sees }: { roles: readonly Role[]; fixed: readonly Role[]; editable: boolean; sees: Sees }) {
  return (
    <tbody>
      <tr className="perm-area">
        <th scope="rowgroup" colSpan={roles.length + 1}>
          Customers they see
        </th>
      </tr>
      <tr>
        <th scope="row" className="perm-name">
          <span className="perm-words">Sees</span> <code className="perm-code">customers scope</code>
        </th>
        {roles.map((r) => {
          const locked = !editable || fixed.includes(r);
          const now = fixed.includes(r) ? 'all' : sees.of(r);
          // A radio pair per role (its words wrap, so the matrix keeps its width); arrow keys move between them.
          return (
            <td key={r} className="perm-cell">
              <div role="radiogroup" aria-label={`${r}: Sees`}>
                {CUSTOMER_SCOPES.map((s) => (
                  <div key={s}>
                    <label>
                      <input type="radio" name={`sees-${r}`} value={s} checked={now === s} disabled={locked} onChange={() => sees.set(r, s)} /> {scopeWords(s)}
                    </label>
                  </div>
                ))}
              </div>
            </td>
          );
        })}
      </tr>
    </tbody>
  );
}
