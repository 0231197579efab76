// SPEC §2 Customers list (customers, customers:view). D26: search as you type, status and tag filters,
// sortable columns, 25/50/100 a page, all in the URL. D25: the 'Deleted' view with Restore
// (customers:delete). D27: Export CSV (customers:export) and Import (customers:create). D9: only what
// the person may do is offered. States: loading, empty, no match, error with Retry.
import { lazy, Suspense, useEffect, useState } from 'react';
import { RESTORE_WINDOW_DAYS, type CustomerListItem } from '../../../contract/customers';
import { useCustomersApi } from '../../api/customers';
import { useMutation, useQuery } from '../../query/use-query';
import { Link } from '../../router/Link';
import { location, navigate, useLocation } from '../../router/location';
import { PAGES } from '../../router/paths';
import { useCan } from '../../session/use-session';
import { LoadError, Page } from '../../ui/page';
import { Spinner } from '../../ui/spinner';
import { toast } from '../../ui/toast';
import { pageCount, Pager } from '../../ui/pager';
import { SelectionArea } from './bulk/PickCells';
import { useMayPick, useSelection } from './bulk/selection';
import { CustomerTable } from './CustomerTable';
import { ListToolbar } from './ListToolbar';
import { apiParams, exportParams, isFiltered, listHref, NO_FILTERS, readListParams, type ListState } from './list-params';
import type { Conflict } from './restore';
import type { CustomField } from '../../../contract/custom-fields';
import { useCustomList } from './custom-columns/use-custom-list';

// D25: a restore's code, and its words when refused, load when Restore is first pressed (restore.tsx).
const RestoreConflict = lazy(() => import('./restore').then((m) => ({ default: m.RestoreConflict })));
// D57: the saved views' bar loads beside the list (its place kept meanwhile), not with it.
const ViewsBar = lazy(() => import('./views/ViewsBar').then((m) => ({ default: m.ViewsBar })));
// D56: the custom fields' Columns and filters, likewise (the route's parts: preloaded with it).
const CustomListControls = lazy(() => import('./custom-columns/CustomListControls').then((m) => ({ default: m.CustomListControls })));
// D25: the 'Deleted' view's table loads when that view is first shown (DeletedTable.tsx).
const DeletedTable = lazy(() => import('./DeletedTable').then((m) => ({ default: m.DeletedTable })));

type Go = (patch: Partial<ListState>, opts?: { replace?: boolean }) => void;

const plural = (n: number, what = 'customer') => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The list of one view (all or deleted); keyed by view, so one view's rows never stand in for the other's. */
function Results({ state, go, canCreate, columns }: { state: ListState; go: Go; canCreate: boolean; columns: readonly CustomField[] }) {
  const api = useCustomersApi();
  // The last list stays on screen (marked busy) while another page, sort or search loads.
  const query = useQuery(api.list(apiParams(state)), { keepPrevious: true });
  const data = query.data;
  const pages = data ? pageCount(data.count, state.pageSize) : 1;
  // D26: a search matching very many counts only so far; the count is then 'more than'.
  const more = data?.count_exact === false;
  // D58: rows picked for a bulk action (not in the 'Deleted' view); cleared when the filters change.
  const selection = useSelection(state);
  const pick = useMayPick().any && !state.deleted;

  // A page past the end (an old link, a list that shrank) goes to the last page instead.
  const pastEnd = data !== undefined && !query.previous && data.count > 0 && state.page > pages;
  useEffect(() => {
    if (pastEnd) go({ page: pages }, { replace: true });
  });

  const restore = useMutation(api.restore);
  const [restoring, setRestoring] = useState<number | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [codeFailed, setCodeFailed] = useState<{ error: unknown } | null>(null);
  if (codeFailed) throw codeFailed.error;
  async function onRestore(customer: CustomerListItem) {
    if (restoring !== null) return;
    setConflict(null);
    setRestoring(customer.id);
    try {
      const { restoreCustomer } = await import('./restore');
      setConflict(await restoreCustomer((id) => restore.mutate(id), customer));
    } catch (error) {
      setCodeFailed({ error }); // D40, as the page's lazily loaded dialogs: thrown below, to the page area
    } finally {
      setRestoring(null);
    }
  }

  const retry = () => void query.refetch().catch(() => undefined);
  const filtered = !state.deleted && isFiltered(state);

  let body;
  if (query.status === 'error' && !data) {
    body = <LoadError what="customers" forbidden="the customers of this organization" error={query.error} busy={query.fetching} onRetry={retry} />;
  } else if (!data || pastEnd) {
    body = <Spinner label="Loading customers…" showLabel />;
  } else if (data.count === 0) {
    body = (
      <div className="card list-message">
        {state.deleted ? (
          <>
            <p className="list-message-title">No deleted customers.</p>
            <p className="muted">Customers deleted in the last {RESTORE_WINDOW_DAYS} days can be restored from here.</p>
          </>
        ) : filtered ? (
          <>
            <p className="list-message-title">No customers match.</p>
            <p className="muted">Try another search or filter.</p>
            <button type="button" className="btn" onClick={() => go({ ...NO_FILTERS, page: 1 })}>
              Clear filters
            </button>
          </>
        ) : (
          <>
            <p className="list-message-title">No customers yet.</p>
            {canCreate && (
              <Link to={PAGES.newCustomer} className="btn btn-primary">
                Add Customer
              </Link>
            )}
          </>
        )}
      </div>
    );
  } else {
    const busy = query.previous || query.fetching;
    const caption = `${state.deleted ? 'Deleted customers' : 'Customers'}, page ${state.page} of ${more ? `more than ${pages}` : pages}`;
    body = (
      <>
        {state.deleted ? (
          <Suspense fallback={<Spinner label="Loading customers…" showLabel />}>
            <DeletedTable customers={data.results} busy={busy} caption={caption} restoring={restoring} onRestore={(c) => void onRestore(c)} />
          </Suspense>
        ) : (
          <CustomerTable
            customers={data.results}
            busy={busy}
            caption={caption}
            sort={state.sort}
            onSort={(sort) => go({ sort: sort as ListState['sort'], page: 1 })}
            columns={columns}
            onTag={(tag) => go({ tag, page: 1 })}
            selection={pick ? selection : undefined}
          />
        )}
        {(pages > 1 || more) && <Pager page={state.page} pages={pages} more={more} onPage={(page) => go({ page })} />}
      </>
    );
  }

  let summary = '';
  if (data && !pastEnd && data.count > 0) {
    if (state.deleted) summary = plural(data.count, 'deleted customer');
    else if (more) summary = `More than ${data.count.toLocaleString()} customers match`;
    else summary = filtered ? `${plural(data.count)} ${data.count === 1 ? 'matches' : 'match'}` : plural(data.count);
  }

  return (
    <>
      {conflict && (
        <Suspense fallback={null}>
          <RestoreConflict conflict={conflict} onDismiss={() => setConflict(null)} />
        </Suspense>
      )}
      <p className="list-summary" aria-live="polite">
        {summary}
      </p>
      {pick && data && !pastEnd && data.count > 0 && <SelectionArea selection={selection} rows={data.results} total={data.count} exact={!more} />}
      {body}
    </>
  );
}

export default function CustomersPage() {
  const can = { create: useCan('customers:create'), remove: useCan('customers:delete'), export: useCan('customers:export') };
  const api = useCustomersApi();
  const { search } = useLocation();
  const url = readListParams(search);
  // D9: the 'Deleted' view only for who may restore; for anyone else such a link shows the list.
  const state: ListState = { ...url, deleted: url.deleted && can.remove };
  const custom = useCustomList(state); // D56
  // Merged into the URL as it is now, not as this render saw it: a pending search keeps a filter chosen meanwhile.
  const go: Go = (patch, { replace = false } = {}) => {
    const now = readListParams(location.getState().search);
    navigate(listHref({ ...now, deleted: now.deleted && can.remove, ...patch }), { replace });
  };

  const [exporting, setExporting] = useState(false);
  async function onExport() {
    setExporting(true);
    try {
      const [csv, { saveFile }] = await Promise.all([api.exportCsv(exportParams(custom.asked)), import('../../lib/save-file')]);
      saveFile(csv, `customers-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch {
      toast.error('Could not export customers. Please try again.');
    } finally {
      setExporting(false);
    }
  }

  return (
    <Page
      title="Customers"
      actions={
        <>
          {can.create && (
            <Link to={PAGES.importCustomers} className="btn">
              Import
            </Link>
          )}
          {can.export && !state.deleted && (
            <button type="button" className="btn" onClick={() => void onExport()} disabled={exporting} aria-busy={exporting || undefined}>
              {exporting ? 'Exporting…' : 'Export CSV'}
            </button>
          )}
          {can.create && (
            <Link to={PAGES.newCustomer} className="btn btn-primary">
              Add Customer
            </Link>
          )}
        </>
      }
    >
      <div className="list-top">
        {can.remove && (
          <nav className="view-tabs" aria-label="Customer views">
            <Link to={listHref({ ...state, deleted: false, page: 1 })} aria-current={state.deleted ? undefined : 'page'}>
              All customers
            </Link>
            <Link to={listHref({ ...state, deleted: true, page: 1 })} aria-current={state.deleted ? 'page' : undefined}>
              Deleted
            </Link>
          </nav>
        )}
        {!state.deleted && (
          <Suspense fallback={<div className="views-bar" />}>
            <ViewsBar search={search} viewId={state.viewId ?? null} />
          </Suspense>
        )}
        {!state.deleted && (
          <Suspense fallback={null}>
            <CustomListControls state={state} fields={custom.fields} onChange={go} />
          </Suspense>
        )}
      </div>
      {!state.deleted && <ListToolbar state={state} onChange={go} customSorts={custom.sorts} />}
      {custom.ready ? (
        <Results key={state.deleted ? 'deleted' : 'all'} state={custom.asked} go={go} canCreate={can.create} columns={custom.columns} />
      ) : (
        <Spinner label="Loading customers…" showLabel />
      )}
    </Page>
  );
}
