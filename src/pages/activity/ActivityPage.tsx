// D30 Activity (/activity, audit:view): the organization's audit log, newest first and paged, filtered
// by person, action and target type (all in the URL), each entry in plain words with a link to what
// it is about (describe.ts). The person filter lists the team (team:view), else the people seen in
// the entries so far.
import { lazy, Suspense, useEffect, useState } from 'react';
import type { AuditEntryView } from '../../../contract/audit';
import { AUDIT_PAGE_SIZE, useTeamApi } from '../../api/team';
import { useQuery } from '../../query/use-query';
import { navigate, useLocation } from '../../router/location';
import { useCan } from '../../session/use-session';
import { LoadError, Page } from '../../ui/page';
import { Spinner } from '../../ui/spinner';
import { activityHref, auditParams, DEFAULT_ACTIVITY, isFiltered, readActivityParams, type ActivityState } from './activity-params';
import { AuditWords } from '../../audit/AuditWords';
import { mayUndoBulk, undoneBulks } from '../../audit/bulk-entry';

// D58: a bulk action's Undo loads where the log shows one.
const BulkUndo = lazy(() => import('./BulkUndo'));
import type { LinkRights } from '../../audit/describe';
import { ACTIONS, TARGET_TYPES } from '../../audit/words';
import { absoluteTime } from '../../ui/when';
import { pageCount, Pager } from '../../ui/pager';

type Go = (patch: Partial<ActivityState>, opts?: { replace?: boolean }) => void;

const plural = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;

function Entry({ entry, rights, undo }: { entry: AuditEntryView; rights: LinkRights; undo: boolean }) {
  return (
    <tr>
      <td className="activity-when" data-label="When">
        <time dateTime={entry.at}>{absoluteTime(entry.at)}</time>
      </td>
      <td className="activity-what">
        <AuditWords entry={entry} view="log" rights={rights} />
        {undo && (
          <Suspense fallback={null}>
            <BulkUndo entry={entry} />
          </Suspense>
        )}
      </td>
    </tr>
  );
}

function Filters({ state, people, go }: { state: ActivityState; people: [number, string][]; go: Go }) {
  const known = state.actor === null || people.some(([id]) => id === state.actor);
  const unknownAction = state.action && !ACTIONS.some((a) => a.action === state.action);
  const unknownTarget = state.targetType && !TARGET_TYPES.some((t) => t.type === state.targetType);
  return (
    <div className="activity-filters" role="group" aria-label="Filter the activity">
      <div className="activity-field">
        <label htmlFor="activity-actor">Person</label>
        <select id="activity-actor" value={state.actor ?? ''} onChange={(e) => go({ actor: e.target.value ? Number(e.target.value) : null, page: 1 })}>
          <option value="">Anyone</option>
          {!known && <option value={state.actor!}>Person #{state.actor}</option>}
          {people.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div className="activity-field">
        <label htmlFor="activity-action">Action</label>
        <select id="activity-action" value={state.action} onChange={(e) => go({ action: e.target.value, page: 1 })}>
          <option value="">Any action</option>
          {unknownAction && <option value={state.action}>{state.action}</option>}
          {ACTIONS.map((a) => (
            <option key={a.action} value={a.action}>
              {a.label}
            </option>
          ))}
        </select>
      </div>
      <div className="activity-field">
        <label htmlFor="activity-target">About</label>
        <select id="activity-target" value={state.targetType} onChange={(e) => go({ targetType: e.target.value, page: 1 })}>
          <option value="">Anything</option>
          {unknownTarget && <option value={state.targetType}>{state.targetType}</option>}
          {TARGET_TYPES.map((t) => (
            <option key={t.type} value={t.type}>
              {t.label}
            </option>
          ))}
        </select>
      </div>
      {isFiltered(state) && (
        <button type="button" className="btn activity-clear" onClick={() => go({ ...DEFAULT_ACTIVITY })}>
          Clear filters
        </button>
      )}
    </div>
  );
}

export default function ActivityPage() {
  const api = useTeamApi();
  const rights: LinkRights = { customers: useCan('customers:view'), team: useCan('team:view'), permissions: useCan('permissions:view') };
  const state = readActivityParams(useLocation().search);
  const go: Go = (patch, { replace = false } = {}) => navigate(activityHref({ ...state, ...patch }), { replace });

  const query = useQuery(api.audit(auditParams(state)), { keepPrevious: true });
  const members = useQuery(api.members(), { enabled: rights.team });
  const data = query.data;
  const pages = data ? pageCount(data.count, AUDIT_PAGE_SIZE) : 1;

  // Without team:view the person filter offers the people seen in the entries so far (kept across pages).
  const [seen, setSeen] = useState<ReadonlyMap<number, string>>(new Map());
  useEffect(() => {
    const fresh = (data?.results ?? []).filter((e) => e.actor?.id != null && !seen.has(e.actor.id));
    if (fresh.length) setSeen((prev) => new Map([...prev, ...fresh.map((e): [number, string] => [e.actor!.id!, e.actor!.name])]));
  }, [data]);
  const people = new Map<number, string>((members.data ?? []).map((m) => [m.user_id, m.name]));
  for (const [id, name] of seen) if (!people.has(id)) people.set(id, name);

  // A page past the end (an old link, a log filtered down) goes to the last page instead.
  const pastEnd = data !== undefined && !query.previous && data.count > 0 && state.page > pages;
  useEffect(() => {
    if (pastEnd) go({ page: pages }, { replace: true });
  });

  // D58: a bulk action's entry offers Undo unless the entries shown say it was undone.
  const undone = undoneBulks(data?.results ?? []);
  const now = Date.now();

  let body;
  if (query.status === 'error' && !data) {
    body = (
      <LoadError
        what="the activity"
        forbidden="the activity of this organization"
        error={query.error}
        busy={query.fetching}
        onRetry={() => void query.refetch().catch(() => undefined)}
      />
    );
  } else if (!data || pastEnd) {
    body = <Spinner label="Loading activity…" showLabel />;
  } else if (data.count === 0) {
    body = (
      <div className="card list-message">
        {isFiltered(state) ? (
          <>
            <p className="list-message-title">No activity matches these filters.</p>
            <button type="button" className="btn" onClick={() => go({ ...DEFAULT_ACTIVITY })}>
              Clear filters
            </button>
          </>
        ) : (
          <p className="list-message-title">No activity yet.</p>
        )}
      </div>
    );
  } else {
    body = (
      <>
        <div className="table-wrap" data-busy={query.previous || query.fetching || undefined}>
          <table className="data-table activity-table">
            <caption className="sr-only">
              Activity, newest first, page {state.page} of {pages}
            </caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What happened</th>
              </tr>
            </thead>
            <tbody>
              {data.results.map((e) => (
                <Entry key={e.id} entry={e} rights={rights} undo={mayUndoBulk(e, undone, now)} />
              ))}
            </tbody>
          </table>
        </div>
        {pages > 1 && <Pager page={state.page} pages={pages} onPage={(page) => go({ page })} />}
      </>
    );
  }

  return (
    <Page title="Activity" description="Every change in your organization: who did what, and when.">
      <Filters state={state} people={[...people]} go={go} />
      <p className="list-summary" aria-live="polite">
        {data && !pastEnd && data.count > 0 ? plural(data.count) : ''}
      </p>
      {body}
    </Page>
  );
}
