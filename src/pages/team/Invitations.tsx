// D28: the pending invitations, with Renew and Revoke where the person may handle them (D9, offers.ts).
import { useState } from 'react';
import type { Invitation, IssuedInvitation } from '../../../contract/team';
import { useTeamApi } from '../../api/team';
import { useMutation, useQuery } from '../../query/use-query';
import { LoadError } from '../../ui/page';
import { Spinner } from '../../ui/spinner';
import { toast } from '../../ui/toast';
import { mayHandleInvitation, roleName, type Viewer } from './offers';
import { Day } from '../../ui/when';
import { errorWords } from '../../ui/error-words';

export function Invitations({ viewer, onIssued, onRefused }: { viewer: Viewer; onIssued: (i: IssuedInvitation) => void; onRefused: (message: string) => void }) {
  const api = useTeamApi();
  const query = useQuery(api.invitations());
  const revoke = useMutation(api.revoke);
  const renew = useMutation(api.renew);
  const [busy, setBusy] = useState<number | null>(null);

  async function act(i: Invitation, what: 'revoke' | 'renew') {
    setBusy(i.id);
    try {
      if (what === 'renew') onIssued(await renew.mutate(i.id));
      else {
        await revoke.mutate(i.id);
        toast.success(`Invitation for ${i.email} revoked`);
      }
    } catch (error) {
      onRefused(`Could not ${what} the invitation for ${i.email}. ${errorWords(error)}`);
    } finally {
      setBusy(null);
    }
  }

  let body;
  if (query.status === 'error' && !query.data)
    body = <LoadError what="the invitations" error={query.error} explained busy={query.fetching} onRetry={() => void query.refetch().catch(() => undefined)} />;
  else if (!query.data) body = <Spinner label="Loading invitations…" showLabel />;
  else if (query.data.length === 0) body = <p className="muted admin-empty">No pending invitations.</p>;
  else {
    body = (
      <div className="table-wrap">
        <table className="data-table team-table">
          <caption className="sr-only">Pending invitations</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Invited by</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {query.data.map((i) => (
              <tr key={i.id}>
                <td className="team-name team-email">{i.email}</td>
                <td data-label="Role">{roleName(i.role)}</td>
                <td data-label="Invited by">{i.invited_by?.name ?? '—'}</td>
                <td className="team-date" data-label="Expires">
                  <Day at={i.expires_at} />
                </td>
                <td className="team-actions">
                  {mayHandleInvitation(i.role, viewer) && (
                    <>
                      <button
                        type="button"
                        className="btn team-btn"
                        aria-label={`Renew the invitation for ${i.email}`}
                        disabled={busy === i.id}
                        onClick={() => void act(i, 'renew')}
                      >
                        Renew
                      </button>
                      <button
                        type="button"
                        className="btn team-btn"
                        aria-label={`Revoke the invitation for ${i.email}`}
                        disabled={busy === i.id}
                        onClick={() => void act(i, 'revoke')}
                      >
                        Revoke
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  return (
    <section className="admin-section" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Pending invitations</h2>
      {body}
    </section>
  );
}
