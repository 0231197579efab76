// SPEC §2 D49 Merge Customers (customers/merge?survivor=&merged=, customers:merge; the route table guards
// it): the two customers side by side, loaded as one preview. The choices are kept across a swap (the
// pair, not its order, keys them) and across a failed merge.
import type { MergePreview } from '../../../../contract/merge';
import { useMergeApi } from '../../../api/merge';
import { isHttpError } from '../../../http/errors';
import { useQuery } from '../../../query/use-query';
import { useLocation } from '../../../router/location';
import { isPositiveId } from '../../../router/params';
import { PAGES } from '../../../router/paths';
import { Link } from '../../../router/Link';
import { LoadError, Page } from '../../../ui/page';
import { Spinner } from '../../../ui/spinner';
import { MergeScreen } from './MergeScreen';

export const PAGE_TITLE = 'Merge Customers';
export const MSG_PICK_TWO = 'Choose two customers to merge: open one of them and press ‘Merge with…’.';
export const MSG_SAME = 'A customer cannot be merged with itself. Choose another customer to merge with.';

/** The two ids of the address, or null when either is missing or not a positive integer (D12). */
export function readMergeParams(search: string): { survivor: number; merged: number } | null {
  const p = new URLSearchParams(search);
  const survivor = p.get('survivor') ?? undefined;
  const merged = p.get('merged') ?? undefined;
  return isPositiveId(survivor) && isPositiveId(merged) ? { survivor: Number(survivor), merged: Number(merged) } : null;
}

/** Nothing to merge: why, and the way back (ui/not-found's look; not its module, which keeps the customer pages' chunk whole). */
const Refused = ({ message }: { message: string }) => (
  <Page title={PAGE_TITLE}>
    <div className="card empty-state">
      <p>{message}</p>
      <Link to={PAGES.customers} className="btn">
        Back to Customers
      </Link>
    </div>
  </Page>
);

export default function MergePage() {
  const ids = readMergeParams(useLocation().search);
  if (!ids) return <Refused message={MSG_PICK_TWO} />;
  if (ids.survivor === ids.merged) return <Refused message={MSG_SAME} />;
  const pair = [ids.survivor, ids.merged].sort((a, b) => a - b).join('-');
  return <MergeLoader key={pair} survivorId={ids.survivor} mergedId={ids.merged} />;
}

/** The preview in the survivor's order: after a swap the last one shows, turned round, until the new one comes. */
function oriented(data: MergePreview | undefined, survivorId: number): (MergePreview & { current: boolean }) | null {
  if (!data) return null;
  if (data.survivor.id === survivorId) return { ...data, current: true };
  return { survivor: data.merged, merged: data.survivor, moves: data.moves, current: false };
}

function MergeLoader({ survivorId, mergedId }: { survivorId: number; mergedId: number }) {
  const query = useQuery(useMergeApi().preview(survivorId, mergedId), { keepPrevious: true });
  const preview = oriented(query.data, survivorId);
  // A customer gone, merged or of another organization (404), or refused (400, 409): the server says why.
  const { error } = query;
  const refused = isHttpError(error) && [400, 404, 409].includes(error.status) && !query.fetching && query.status === 'error';
  if (refused) return <Refused message={error.detail ?? MSG_PICK_TWO} />;
  if (preview) return <MergeScreen preview={preview} movesKnown={preview.current && !query.previous} />;
  return (
    <Page title={PAGE_TITLE}>
      {query.status === 'error' ? (
        <LoadError what="these customers" error={query.error} busy={query.fetching} onRetry={() => void query.refetch().catch(() => undefined)} />
      ) : (
        <Spinner label="Loading both customers…" />
      )}
    </Page>
  );
}
