// D49: after a merge, "Anna Lee merged into Ann Lee" with an Undo button; Undo puts both back and says
// so (or why not). The toast outlives the merge page, so its Undo holds the calls and the cache, not hooks.
import type { Customer } from '../../../../contract/customers';
import { MERGE_UNDO_DAYS } from '../../../../contract/merge';
import type { MergeApi } from '../../../api/merge';
import { isHttpError } from '../../../http/errors';
import type { QueryCache } from '../../../query/cache';
import { Link } from '../../../router/Link';
import { customerHref } from '../../../router/paths';
import { failedWords } from '../../../ui/failed-words';
import { dismissToast, toast } from '../../../ui/toast';

type Named = Pick<Customer, 'id' | 'name'>;

export interface MergeDone {
  survivor: Named;
  merged: Named;
  mergeId: number;
}

const CustomerLink = ({ c }: { c: Named }) => <Link to={customerHref(c.id)}>{c.name}</Link>;

/** Why an undo was refused: the server's words for a 409 or a 410 (older than the undo window). */
export function undoFailedWords(error: unknown): string {
  if (isHttpError(error, 410)) return `Could not undo the merge: ${error.detail ?? `it is older than ${MERGE_UNDO_DAYS} days`}.`;
  return failedWords(error, 'undo the merge');
}

export function showMergedToast({ survivor, merged, mergeId }: MergeDone, api: Pick<MergeApi, 'undo'>, cache: QueryCache): void {
  let id = 0;
  let undone = false;
  const undo = async () => {
    if (undone) return; // a second press while the first is on its way
    undone = true;
    dismissToast(id);
    try {
      await api.undo.run(mergeId);
    } catch (error) {
      return void toast.error(undoFailedWords(error));
    }
    for (const key of api.undo.invalidates) cache.invalidate(key);
    toast.success(
      <>
        Merge undone: <CustomerLink c={survivor} /> and <CustomerLink c={merged} /> are separate again
      </>,
    );
  };
  id = toast.success(
    <>
      {merged.name} merged into <CustomerLink c={survivor} />{' '}
      <button type="button" className="toast-action" onClick={() => void undo()}>
        Undo
      </button>
    </>,
  );
}
