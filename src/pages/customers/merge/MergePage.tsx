// SPEC §2 D49 Merge Customers (customers/merge?survivor=&merged=[&chosen=1], customers:merge; the route
// table guards it): the two customers side by side, loaded as one preview. D66: until the person chooses
// (Swap), the server proposes which is kept (more history). The choices are kept across a swap (the pair,
// not its order, keys them) and across a failed merge.
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

/** The two ids of the address (D66: and whether the person chose which is kept), or null when either is missing or not a positive integer (D12). */
export function readMergeParams(search: string): { survivor: number; merged: number; chosen: boolean } | null {
  const p = new URLSearchParams(search);
  const survivor = p.get('survivor') ?? undefined;
  const merged = p.get('merged') ?? undefined;
  return isPositiveId(survivor) && isPositiveId(merged) ? { survivor: Number(survivor), merged: Number(merged), chosen: p.get('chosen') === '1' } : null;
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
  return <MergeLoader key={pair} survivorId={ids.survivor} mergedId={ids.merged} chosen={ids.chosen} />;
}

/**
 * The preview in the survivor's order (D66: the server's, while nobody chose): after a swap the last one
 * shows, turned round, until the new one comes.
 */
function oriented(data: MergePreview | undefined, survivorId: number | null): (MergePreview & { current: boolean }) | null {
  if (!data) return null;
  if (survivorId === null || data.survivor.id === survivorId) return { ...data, current: true };
  const history = { survivor: data.history.merged, merged: data.history.survivor };
  return { survivor: data.merged, merged: data.survivor, moves: data.moves, history, current: false };
}

function MergeLoader({ survivorId, mergedId, chosen }: { survivorId: number; mergedId: number; chosen: boolean }) {
  const query = useQuery(useMergeApi().preview(survivorId, mergedId, !chosen), { keepPrevious: true });
  const preview = oriented(query.data, chosen ? survivorId : null);
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
