// D58: after a bulk action, '3 customers changed (1 already was)' with Undo. The toast outlives the list
// (the person may go elsewhere), so its Undo holds the calls and the cache, not hooks.
import type { BulkResult } from '../../../../contract/bulk';
import type { BulkApi } from '../../../api/bulk';
import { undoBulk } from '../../../audit/bulk-undo';
import type { QueryCache } from '../../../query/cache';
import { dismissToast, toast } from '../../../ui/toast';
import { resultWords } from './bulk-words';

export function showBulkToast(result: BulkResult, api: Pick<BulkApi, 'undo'>, cache: QueryCache): void {
  const bulkId = result.bulk_id;
  if (bulkId === null) return void toast.info(resultWords(result)); // nothing written: nothing to undo
  let id = 0;
  let undone = false;
  const undo = async () => {
    if (undone) return; // a second press while the first is on its way
    undone = true;
    dismissToast(id);
    await undoBulk(api, cache, bulkId);
  };
  id = toast.success(
    <>
      {resultWords(result)}{' '}
      <button type="button" className="toast-action" onClick={() => void undo()}>
        Undo
      </button>
    </>,
  );
}
