// D24: the customer's timeline, newest first and paged ("Show more"): its notes (added here, edited and
// deleted in place) and every audit entry about it in plain words, each change before → after; D50 each
// field change with 'Restore this value' for who has customers:update (RestoreValue.tsx); D49 a merge
// entry with 'Undo this merge' for who has customers:merge while it can be undone (UndoMerge.tsx).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TimelineItem } from '../../../../contract/customers';
import { useCustomersApi } from '../../../api/customers';
import { AuditChanges, AuditWords } from '../../../audit/AuditWords';
import { useQuery } from '../../../query/use-query';
import { useCan, useSession } from '../../../session/use-session';
import { LoadError } from '../../../ui/page';
import { Spinner } from '../../../ui/spinner';
import { When } from '../../../ui/when';
import { useCustomerGone } from './gone';
import { NoteBox, NoteItem } from './Notes';
import { RestoreValues } from './RestoreValue';
import { TimelineSection } from './timeline-section';
import { mayUndoMerge, UndoMerge, undoneMerges } from './UndoMerge';

/** Items per page of the timeline (the server allows up to 100). */
export const TIMELINE_PAGE_SIZE = 20;

const pageParams = (page: number) => ({ page, page_size: TIMELINE_PAGE_SIZE });

interface EntryProps {
  customerId: number;
  /** D24: who may edit or delete a note: anyone with customers:update, and its author. */
  mayEdit: (authorId: number | undefined) => boolean;
  onNoteDeleted: () => void;
  /** D50: who may restore a changed field's old value (customers:update). */
  mayRestore: boolean;
  /** D15: where the focus goes after a restore or an undone merge (its button goes). */
  onRestored: () => void;
  /** D49: who may undo a merge (customers:merge), and the merges undone in the timeline's loaded pages. */
  mayMerge: boolean;
  undone: ReadonlySet<number>;
}

/** `start`: the first item of a page loaded by "Show more", which takes the focus (D15). */
function Entry({ item, start, customerId, mayEdit, onNoteDeleted, mayRestore, onRestored, mayMerge, undone }: EntryProps & { item: TimelineItem; start?: number }) {
  const mark = start === undefined ? {} : { 'data-page-start': start, tabIndex: -1 };
  if (item.kind === 'note') {
    const { kind: _kind, ...note } = item;
    return (
      <li className="timeline-item" data-kind="note" {...mark}>
        <NoteItem customerId={customerId} note={note} editable={mayEdit(note.author?.id)} onDeleted={onNoteDeleted} />
      </li>
    );
  }
  return (
    <li className="timeline-item" data-kind="audit" {...mark}>
      <p className="timeline-line">
        <span>
          <AuditWords entry={item} view="timeline" self={customerId} />
        </span>{' '}
        <span className="timeline-time">
          <When at={item.at} />
        </span>
      </p>
      <AuditChanges entry={item} />
      {mayRestore && item.action === 'customer.updated' && <RestoreValues entry={item} customerId={customerId} onRestored={onRestored} />}
      {mayMerge && mayUndoMerge(item, customerId, undone, Date.now()) && <UndoMerge entry={item} onUndone={onRestored} />}
    </li>
  );
}

const keyOf = (item: TimelineItem) => `${item.kind}-${item.id}`;

/**
 * Pages after the first, each read on its own (its own cache key). When the page asked for arrives,
 * its first item takes the focus, so a keyboard user reads on where the new items start.
 */
function LaterPage({ page, onUndone, ...props }: EntryProps & { page: number; onUndone: (page: number, ids: number[]) => void }) {
  const query = useQuery(useCustomersApi().timeline(props.customerId, pageParams(page)));
  const arrived = query.data !== undefined;
  const ids = undoneMerges(query.data?.results).join();
  useEffect(() => onUndone(page, ids ? ids.split(',').map(Number) : []), [onUndone, page, ids]);
  useEffect(() => {
    if (arrived) document.querySelector<HTMLElement>(`[data-page-start="${page}"]`)?.focus();
  }, [arrived, page]);
  return (
    <>
      {query.data?.results.map((item, i) => (
        <Entry key={keyOf(item)} item={item} start={i === 0 ? page : undefined} {...props} />
      ))}
    </>
  );
}

export function Timeline({ customerId }: { customerId: number }) {
  const api = useCustomersApi();
  const canUpdate = useCan('customers:update');
  const mayMerge = useCan('customers:merge');
  const userId = useSession().userId;
  const [pages, setPages] = useState(1);
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useQuery(api.timeline(customerId, pageParams(1)));
  // The page asked for last: while it loads "Show more" waits; if it fails, Retry asks again.
  const last = useQuery(api.timeline(customerId, pageParams(pages)));
  // D49: an undo's entry is newer than its merge's, so it is on the same page or an earlier one.
  const [laterUndone, setLaterUndone] = useState<Record<number, number[]>>({});
  const onUndone = useCallback((page: number, ids: number[]) => setLaterUndone((u) => (u[page]?.join() === ids.join() ? u : { ...u, [page]: ids })), []);
  const undone = new Set([...undoneMerges(first.data?.results), ...Object.values(laterUndone).flat()]);
  const retry = () => void (first.status === 'error' ? first : last).refetch().catch(() => undefined);
  const gone = useCustomerGone(customerId); // D59: a 404 here asks the record again
  useEffect(() => gone(first.error), [first.error]);

  const props: EntryProps = {
    customerId,
    mayEdit: (authorId) => canUpdate || (userId !== null && authorId === userId),
    onNoteDeleted: () => heading.current?.focus(),
    mayRestore: canUpdate,
    onRestored: () => heading.current?.focus(),
    mayMerge,
    undone,
  };
  const count = first.data?.count ?? 0;
  const failed = (first.status === 'error' && !first.data) || (last.status === 'error' && !last.data);

  let body;
  if (first.data && count === 0) body = <p className="muted">Nothing here yet.</p>;
  else if (first.data) {
    body = (
      <ol className="timeline">
        {first.data.results.map((item) => (
          <Entry key={keyOf(item)} item={item} {...props} />
        ))}
        {Array.from({ length: pages - 1 }, (_, i) => (
          <LaterPage key={i + 2} page={i + 2} onUndone={onUndone} {...props} />
        ))}
      </ol>
    );
  } else if (!failed) body = <Spinner label="Loading the timeline…" />;

  return (
    <TimelineSection heading={heading}>
      <NoteBox customerId={customerId} />
      {body}
      {failed ? (
        <LoadError inline what="the timeline" error={first.error ?? last.error} busy={first.fetching || last.fetching} onRetry={retry} />
      ) : (
        (count > pages * TIMELINE_PAGE_SIZE || !last.data) &&
        first.data && (
          <button type="button" className="btn btn-sm timeline-more" onClick={() => setPages((p) => p + 1)} disabled={!last.data} aria-busy={!last.data || undefined}>
            {last.data ? 'Show more' : 'Loading…'}
          </button>
        )
      )}
    </TimelineSection>
  );
}
