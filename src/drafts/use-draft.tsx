// D41: the one hook every form uses to keep what the person typed as a draft (store.ts). It writes as
// the person types (debounced), and at once when the page goes (pagehide: reload, close, another tab's
// D21 switch or logout reloading this one) or the form goes without the person choosing (a lost
// permission, a crash). Opening the form again offers the draft back. Saving or discarding removes it.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { isHttpError, type HttpError } from '../http/errors';
import { holdPage } from '../router/hold';
import { useSession, useSessionActions } from '../session/use-session';
import { draftKey, readDraft, removeDraft, writeDraft, type Draft } from './store';

/** Typing is written this long after the last change (and at once when the page or form goes). */
export const DRAFT_DEBOUNCE_MS = 400;
export const DRAFT_RESTORE = 'Restore';
export const DRAFT_DISCARD = 'Discard';

/** D41's message after a 403 permission_denied on save. */
export const lostPermissionMessage = (action: string) => `You no longer have permission to ${action}. Your changes are kept as a draft.`;
/** D29/D41: the server refused because the person's permissions changed under them. */
export const isPermissionDenied = (e: unknown): e is HttpError => isHttpError(e, 403) && e.code === 'permission_denied';

const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();
/** 'Restore your unsaved changes from {time}?': the time of day, with the date when not today. */
export function draftTime(at: number, now = Date.now()): string {
  const when = new Date(at);
  return sameDay(when, new Date(now))
    ? when.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' })
    : when.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export interface DraftOptions<T> {
  /** Which form: 'customer-new', 'customer-edit:7', 'note:7', 'invite', 'permissions'. */
  form: string;
  /** What would be kept now (JSON; never a password or token). */
  data: T;
  /** Whether the form holds anything worth keeping (changed from where it started). */
  dirty: boolean;
  /** Puts a kept draft back into the form. */
  onRestore: (data: T) => void;
}

export interface DraftControl {
  /** The restore question while a kept draft waits for an answer, else null. */
  offer: ReactNode;
  /** The person saved: the draft goes. */
  saved: () => void;
  /** The person chose to throw the changes away (left without saving): the draft goes. */
  discard: () => void;
  /**
   * D41: a 403 permission_denied on save. The draft is written now, the page stays though its
   * permission is gone (router/hold.ts), and the message to show is returned.
   */
  lost: (action: string) => string;
}

export function useDraft<T>({ form, data, dirty, onRestore }: DraftOptions<T>): DraftControl {
  const { store, tabOrgId } = useSessionActions();
  const email = useSession().user?.email ?? null;
  const orgId = tabOrgId();
  const key = useMemo(() => (email && orgId !== null ? draftKey(email, orgId, form) : null), [email, orgId, form]);
  const [kept, setKept] = useState<Draft<T> | null>(() => (key ? readDraft<T>(key) : null));
  const json = JSON.stringify(data);
  const now = useRef({ data, json, dirty, kept, key });
  now.current = { data, json, dirty, kept, key };
  /** The data as it was when the person saved or discarded it: not written again unless it changes. */
  const ended = useRef<string | null>(null);
  const release = useRef<(() => void) | null>(null);

  /** Writes now what would be kept, unless the question is open or the person ended it. */
  const flush = () => {
    const c = now.current;
    if (!c.key || c.kept || !c.dirty || ended.current === c.json) return;
    if (!store.getState().isAuthenticated) return; // logged out: logout removed the drafts, none comes back
    writeDraft(c.key, c.data);
  };

  useEffect(() => {
    if (!key || kept || ended.current === json) return;
    if (!dirty) return removeDraft(key); // back where it started: nothing to keep
    const timer = setTimeout(flush, DRAFT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key, kept, json, dirty]);

  useEffect(() => {
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush(); // the form goes without the person choosing (lost permission, crash, session gone)
      release.current?.();
    };
  }, []);

  const end = () => {
    ended.current = now.current.json;
    if (now.current.key) removeDraft(now.current.key);
  };

  const offer = kept && (
    <section className="card draft-offer" aria-label="Unsaved changes">
      <p role="status">Restore your unsaved changes from {draftTime(kept.at)}?</p>
      <div className="draft-offer-actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            setKept(null);
            onRestore(kept.data);
          }}
        >
          {DRAFT_RESTORE}
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => {
            if (key) removeDraft(key);
            setKept(null);
          }}
        >
          {DRAFT_DISCARD}
        </button>
      </div>
    </section>
  );

  return {
    offer,
    saved: end,
    // An expired session is not the person's choice: the draft stays for when they sign in again.
    discard: () => (store.getState().expired ? flush() : end()),
    lost(action) {
      ended.current = null;
      flush();
      release.current ??= holdPage();
      return lostPermissionMessage(action);
    },
  };
}
