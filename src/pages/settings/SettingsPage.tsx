// D54 Organization settings (/settings): every member may read them; an owner changes them (the server
// refuses anyone else, 403). For now one switch: 'Require two-step sign-in for everyone', and D56 a link to
// the custom fields (/settings/fields) for who sees customers. The sidebar
// links here for owners only (shell/nav.ts); anyone else who opens the address sees it read-only.
import { useId, useState } from 'react';
import { useOrgAccountApi } from '../../api/account-org';
import { Link } from '../../router/Link';
import { PAGES } from '../../router/paths';
import { useMutation, useQuery } from '../../query/use-query';
import { useCan, useSession } from '../../session/use-session';
import { errorWords } from '../../ui/error-words';
import { LoadError, Page } from '../../ui/page';
import { Spinner } from '../../ui/spinner';
import { toast } from '../../ui/toast';
import { ExportAll } from './ExportAll';

export const MSG_OWNER_ONLY = 'Only an owner can change these settings.';
export const MSG_REQUIRED_ON = 'Two-step sign-in is now required for everyone';
export const MSG_REQUIRED_OFF = 'Two-step sign-in is no longer required';

export default function SettingsPage() {
  const api = useOrgAccountApi();
  const { role, currentOrg } = useSession();
  const owner = role === 'owner';
  const settings = useQuery(api.settings());
  const save = useMutation(api.saveSettings);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const seesFields = useCan('customers:view');

  async function toggle(next: boolean) {
    if (!owner || save.status === 'pending') return;
    setError(null);
    try {
      await save.mutate({ require_mfa: next });
      toast.success(next ? MSG_REQUIRED_ON : MSG_REQUIRED_OFF);
    } catch (e) {
      setError(`Could not change the setting. ${errorWords(e)}`);
    }
  }

  let body;
  if (settings.status === 'error' && !settings.data)
    body = <LoadError what="the settings" error={settings.error} explained busy={settings.fetching} onRetry={() => void settings.refetch().catch(() => undefined)} />;
  else if (!settings.data) body = <Spinner label="Loading the settings…" showLabel />;
  else {
    const pending = save.status === 'pending';
    // While it saves the switch shows the value asked for; it keeps the focus (aria-disabled, not disabled).
    const on = pending && save.data === undefined ? !settings.data.require_mfa : settings.data.require_mfa;
    body = (
      <section className="card account-section" aria-labelledby={`${id}t`}>
        <h2 id={`${id}t`}>Sign-in</h2>
        <div className="setting-row">
          <button
            type="button"
            role="switch"
            id={id}
            className="switch"
            aria-checked={on}
            aria-describedby={`${id}d`}
            aria-disabled={!owner || pending || undefined}
            aria-busy={pending || undefined}
            onClick={() => void toggle(!settings.data!.require_mfa)}
          >
            <span className="switch-knob" aria-hidden="true" />
          </button>
          <label htmlFor={id} className="setting-label">
            Require two-step sign-in for everyone
          </label>
        </div>
        <p id={`${id}d`} className="muted">
          Everyone in {currentOrg?.name ?? 'the organization'} then needs a code from an app on their phone to sign in; a member without it sets it up on their account
          page before they can go on. {!owner && MSG_OWNER_ONLY}
        </p>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </section>
    );
  }
  return (
    <Page title="Organization settings" description="How your organization works, for everyone in it.">
      {body}
      {seesFields && (
        <section className="card account-section" aria-labelledby={`${id}f`}>
          <h2 id={`${id}f`}>Custom fields</h2>
          <p className="muted">
            The fields your organization adds to its customers and service locations. <Link to={PAGES.customFields}>Custom fields</Link>
          </p>
        </section>
      )}
      <ExportAll owner={owner} orgName={currentOrg?.name ?? 'organization'} />
    </Page>
  );
}
