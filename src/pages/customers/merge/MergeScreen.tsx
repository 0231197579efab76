// D49 the merge screen: which customer is kept (D66 proposed by history, with why; Swap), which value
// each differing field keeps, what moves (D66 and which emails and phones are kept as contacts), then
// Merge → the kept customer's page with a toast offering Undo. A refusal or a lost connection is said
// beside the button; the choices stay.
import { useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { keptDetails, type MergePreview } from '../../../../contract/merge';
import { useMergeApi } from '../../../api/merge';
import { connectivity } from '../../../http/connectivity';
import { useQueryCache } from '../../../query/use-query';
import { Link } from '../../../router/Link';
import { navigate } from '../../../router/location';
import { customerHref, mergeCustomersHref } from '../../../router/paths';
import { failedWords } from '../../../ui/failed-words';
import { Page } from '../../../ui/page';
import { FieldChoices, MergeSide, MergeSummary } from './MergeParts';
import { useCustomFields } from '../custom/use-fields';
import { mergeRequest, type Picks, proposalWords, withCustom } from './merge-fields';
import { showMergedToast } from './merge-toast';

export const MSG_MERGE_OFFLINE = "You're offline — your choices are kept and you can merge when the connection is back";

export function MergeScreen({ preview, movesKnown }: { preview: MergePreview; movesKnown: boolean }) {
  const { survivor, merged, history } = preview;
  const api = useMergeApi();
  const cache = useQueryCache();
  // The connectivity store, read here rather than through the form's hook: the form's chunk stays its own.
  const online = useSyncExternalStore(connectivity.subscribe, connectivity.getState, connectivity.getState);
  const id = useId();
  const [picks, setPicks] = useState<Picks>({});
  const defs = useCustomFields('customer').fields; // D56: picked per field too
  const choices = useMemo(() => withCustom(defs), [defs]);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const running = useRef(false);

  const swap = () => {
    setFailure(null);
    navigate(mergeCustomersHref(merged.id, survivor.id, true), { replace: true });
  };

  const run = async () => {
    if (running.current || !online) return; // a second press while the first is on its way
    running.current = true;
    setBusy(true);
    setFailure(null);
    let mergeId: number;
    try {
      mergeId = (await api.merge.run(mergeRequest(survivor, merged, picks, choices))).merge_id;
    } catch (error) {
      running.current = false;
      setBusy(false);
      setFailure(failedWords(error, `merge ${merged.name} into ${survivor.name}`));
      return;
    }
    navigate(customerHref(survivor.id));
    for (const key of api.merge.invalidates) cache.invalidate(key);
    showMergedToast({ survivor, merged, mergeId }, api, cache);
  };

  return (
    <Page title="Merge Customers" description="Choose which customer is kept and which value each field keeps.">
      <div className="merge-sides">
        <MergeSide customer={survivor} history={history.survivor} heading="Kept" />
        <MergeSide customer={merged} history={history.merged} heading="Merged into it" />
      </div>
      <p className="merge-proposal" role="status">
        {proposalWords(preview)}
      </p>
      <p className="merge-swap">
        <button type="button" className="btn" onClick={swap} disabled={busy}>
          Swap: keep {merged.name} instead
        </button>
      </p>
      <FieldChoices
        survivor={survivor}
        merged={merged}
        picks={picks}
        choices={choices}
        onPick={(field, customerId) => setPicks((p) => ({ ...p, [field]: customerId }))}
      />
      <MergeSummary preview={preview} known={movesKnown} kept={keptDetails(survivor, merged, mergeRequest(survivor, merged, picks, choices).fields)} />
      <div className="merge-actions">
        <p id={`${id}o`} className="cf-offline" role="status">
          {online ? '' : MSG_MERGE_OFFLINE}
        </p>
        {failure && (
          <p className="write-error merge-error" role="alert">
            {failure}
          </p>
        )}
        <Link to={customerHref(survivor.id)} className="btn">
          Cancel
        </Link>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void run()}
          disabled={!online}
          aria-disabled={busy || undefined}
          aria-describedby={online ? undefined : `${id}o`}
        >
          {busy ? 'Merging…' : 'Merge'}
        </button>
      </div>
    </Page>
  );
}
