// D67: 'Download everything': an owner takes all of the organization's data as one ZIP of CSV files.
import { useId, useState } from 'react';
import { useOrgAccountApi } from '../../api/account-org';
import { useMutation } from '../../query/use-query';
import { errorWords } from '../../ui/error-words';
import { toast } from '../../ui/toast';

export const MSG_EXPORT_OWNER_ONLY = 'Only an owner can download everything.';
export const MSG_EXPORTED = 'Your data was downloaded';

export function ExportAll({ owner, orgName }: { owner: boolean; orgName: string }) {
  const api = useOrgAccountApi();
  const download = useMutation(api.exportAll);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const pending = download.status === 'pending';

  async function run() {
    if (!owner || pending) return;
    setError(null);
    try {
      const [zip, { saveFile }] = await Promise.all([download.mutate(undefined), import('../../lib/save-file')]);
      saveFile(zip, `${orgName.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'organization'}-${new Date().toISOString().slice(0, 10)}.zip`);
      toast.success(MSG_EXPORTED);
    } catch (e) {
      setError(`Could not download your data. ${errorWords(e)}`);
    }
  }

  return (
    <section className="card account-section" aria-labelledby={`${id}t`}>
      <h2 id={`${id}t`}>Your data</h2>
      <p id={`${id}d`} className="muted">
        One ZIP file with everything {orgName} keeps here: customers with their custom fields, service locations, contacts, notes, the activity log, the team and its
        roles, as spreadsheets (CSV). Its customers, locations and contacts can be imported again (the locations and contacts after the customers, with “Update them”).{' '}
        {!owner && MSG_EXPORT_OWNER_ONLY}
      </p>
      <button
        type="button"
        className="btn"
        aria-describedby={`${id}d`}
        aria-disabled={!owner || pending || undefined}
        aria-busy={pending || undefined}
        onClick={() => void run()}
      >
        {pending ? 'Preparing the file…' : 'Download everything'}
      </button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
