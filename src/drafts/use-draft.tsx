// D41: the one hook every form uses (through context.ts) to keep what the person typed as a draft
// (store.ts). It writes as
// the person types (debounced), and at once when the page goes (pagehide: reload, close, another tab's
// D21 switch or logout reloading this one) or the form goes without the person choosing (a lost
// permission, a crash). Opening the form again offers the draft back (DraftOffer.tsx, loaded only
// then). Saving or discarding removes it; so does logout (lib/storage.ts).
import { lazy, Suspense, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { useSession, useSessionActions } from '../session/use-session';
import type { OfferProps } from './DraftOffer';
import { draftKey, readDraft, removeDraft, writeDraft, type Draft } from './store';

/** Typing is written this long after the last change (and at once when the page or form goes). */
export const DRAFT_DEBOUNCE_MS = 400;

/** router/hold.ts's HOLD_PAGE_EVENT (not imported: that module loads with the shell, not the forms). */
const hold = (path: string | null) => window.dispatchEvent(new CustomEvent('app:hold-page', { detail: path }));

// Should the question fail to load (offline), the draft stays for the next time.
const DraftOffer = lazy<ComponentType<OfferProps>>(() => import('./DraftOffer').catch(() => ({ default: () => null })));

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
  /** 'Restore your unsaved changes from {time}?' while a kept draft waits for an answer, else null. */
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
  const email = useSession().user?.email;
  const org = tabOrgId();
  const key = email && org !== null ? draftKey(email, org, form) : null;
  const [kept, setKept] = useState<Draft<T> | null>(() => (key ? readDraft<T>(key) : null));
  const json = JSON.stringify(data);
  const now = useRef({ data, json, dirty, kept, key });
  now.current = { data, json, dirty, kept, key };
  /** The data as it was when the person saved or discarded it: not written again unless it changes. */
  const ended = useRef<string | null>(null);
  const holding = useRef(false);

  /** Writes now what would be kept: not while the question is open, after the person ended it, or logged out. */
  const flush = () => {
    const c = now.current;
    const { isAuthenticated, expired } = store.getState();
    // D65: a form the Session Expired dialog's closing takes away is still the person's typing (D41).
    if (c.key && !c.kept && c.dirty && ended.current !== c.json && (isAuthenticated || expired)) writeDraft(c.key, c.data);
  };
  const end = () => {
    ended.current = now.current.json;
    if (now.current.key) removeDraft(now.current.key);
  };

  useEffect(() => {
    if (!key || kept || ended.current === json) return;
    if (!dirty) return void removeDraft(key); // back where it started: nothing to keep
    const timer = setTimeout(flush, DRAFT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key, kept, json, dirty]);

  useEffect(() => {
    addEventListener('pagehide', flush);
    return () => {
      removeEventListener('pagehide', flush);
      flush(); // the form goes without the person choosing (lost permission, crash, session gone)
      if (holding.current) hold(null);
    };
  }, []);

  const offer = kept && (
    <Suspense fallback={null}>
      <DraftOffer at={kept.at} onRestore={() => (setKept(null), onRestore(kept.data))} onDiscard={() => (key && removeDraft(key), setKept(null))} />
    </Suspense>
  );

  return {
    offer,
    saved: end,
    // An expired session is not the person's choice: the draft stays for when they sign in again.
    discard: () => (store.getState().expired ? flush() : end()),
    lost(action) {
      ended.current = null;
      flush();
      holding.current = true;
      hold(location.pathname);
      return `You no longer have permission to ${action}. Your changes are kept as a draft.`;
    },
  };
}
