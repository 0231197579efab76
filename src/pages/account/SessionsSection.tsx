// D52 Sessions: where the person is signed in (browser and system, address, started, last active),
// 'This browser' first. Each can be signed out, after a question, or all the others at once; signing
// out this browser's session is signing out. Focus goes to the section's heading after a row goes.
import { useEffect, useRef, useState } from 'react';
import type { SessionView } from '../../../contract/account';
import { useAccountApi } from '../../api/account';
import { isHttpError } from '../../http/errors';
import { useMutation, useQuery } from '../../query/use-query';
import { useSessionActions } from '../../session/use-session';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { errorWords } from '../../ui/error-words';
import { LoadError } from '../../ui/page';
import { Spinner } from '../../ui/spinner';
import { toast } from '../../ui/toast';
import { Day, dayText, When } from '../../ui/when';
import { focusSection } from './kit';

export const MSG_SESSION_ENDED = 'Session signed out';
export const endedWords = (n: number) => (n === 1 ? '1 other session signed out' : `${n} other sessions signed out`);

/** 'Firefox 128 on Linux', in words when the browser did not say. */
export const sessionName = (s: SessionView) => `${s.browser ?? 'Unknown browser'} on ${s.system ?? 'an unknown system'}`;

type Asking = { kind: 'one'; session: SessionView } | { kind: 'others' } | null;

export default function SessionsSection() {
  const api = useAccountApi();
  const session = useSessionActions();
  const sessions = useQuery(api.sessions());
  const revoke = useMutation(api.revoke);
  const revokeOthers = useMutation(api.revokeOthers);
  const [asking, setAsking] = useState<Asking>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => (setAsking(null), setError(null));
  // The row (or the button) that opened the dialog may be gone: once it has closed, the heading takes the focus.
  const refocus = useRef(false);
  useEffect(() => {
    if (asking || !refocus.current) return;
    refocus.current = false;
    focusSection('sessions');
  }, [asking]);
  async function confirm() {
    if (!asking || busy) return;
    setBusy(true);
    setError(null);
    try {
      if (asking.kind === 'others') toast.success(endedWords((await revokeOthers.mutate()).ended_sessions));
      else {
        // An unknown session (it ended meanwhile) is what was asked for: gone.
        await revoke.mutate(asking.session.id).catch((e: unknown) => {
          if (!isHttpError(e, 404)) throw e;
          void sessions.refetch().catch(() => undefined);
        });
        if (asking.session.current) return void (await session.logout()); // D52: this browser's session is this sign-in
        toast.success(MSG_SESSION_ENDED);
      }
      refocus.current = true;
      close();
    } catch (e) {
      setError(errorWords(e));
    } finally {
      setBusy(false);
    }
  }

  if (sessions.status === 'error' && !sessions.data)
    return (
      <LoadError what="your sessions" error={sessions.error} explained inline busy={sessions.fetching} onRetry={() => void sessions.refetch().catch(() => undefined)} />
    );
  if (!sessions.data) return <Spinner label="Loading your sessions…" showLabel />;
  const list = sessions.data;
  const others = list.filter((s) => !s.current).length;

  if (list.length === 0) return <p className="muted">No live sessions.</p>;
  return (
    <>
      <ul className="session-list">
        {list.map((s) => (
          <li key={s.id} className="session-row">
            <div className="session-what">
              <p className="session-name">
                {sessionName(s)}
                {s.current && <span className="session-this"> This browser</span>}
              </p>
              <p className="muted">
                {s.address ?? 'Address unknown'} · Started <Day at={s.started_at} /> · Last active <When at={s.last_active_at ?? s.started_at} />
              </p>
            </div>
            <button
              type="button"
              className="btn team-btn"
              aria-label={`Sign out ${sessionName(s)}${s.current ? ' (this browser)' : `, started ${dayText(s.started_at)}`}`}
              onClick={() => setAsking({ kind: 'one', session: s })}
            >
              Sign out
            </button>
          </li>
        ))}
      </ul>
      {others > 0 && (
        <button type="button" className="btn" onClick={() => setAsking({ kind: 'others' })}>
          Sign out all other sessions
        </button>
      )}
      {asking && (
        <ConfirmDialog
          title={asking.kind === 'others' ? 'Sign out all other sessions?' : asking.session.current ? 'Sign out of this browser?' : 'Sign out this session?'}
          confirm="Sign out"
          busyLabel="Signing out…"
          busy={busy}
          error={error}
          onCancel={close}
          onConfirm={() => void confirm()}
        >
          <p>
            {asking.kind === 'others'
              ? `Every other browser and device signed in as you (${others}) is signed out at its next step; this one stays signed in.`
              : asking.session.current
                ? 'You will be signed out here and taken to the login page.'
                : `${sessionName(asking.session)} is signed out at its next step.`}
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
