// D32 Dashboard: customers by status, new this week and this month, the most recently updated
// customers, and (audit:view) the latest activity, each linking to its page; all from one call. Parts
// the API returns null for (no permission) are not shown; a new organization gets an honest empty state.
import { useEffect, useState, type ReactNode } from 'react';
import type { AuditEntryView } from '../../../contract/audit';
import { CUSTOMER_STATUSES, NEW_THIS_MONTH_DAYS, NEW_THIS_WEEK_DAYS, type DashboardData } from '../../../contract/customers';
import { DAY_MS } from '../../../contract/time';
import { useCustomersApi } from '../../api/customers';
import { AuditWords } from '../../audit/AuditWords';
import { useQuery } from '../../query/use-query';
import { Link } from '../../router/Link';
import { customerHref, PAGES } from '../../router/paths';
import { useCan, useSession } from '../../session/use-session';
import { LoadError, Page } from '../../ui/page';
import { Spinner } from '../../ui/spinner';
import { STATUS_COUNT_WORDS } from '../../ui/status';
import { When } from '../../ui/when';

/** D26 D32: the list's newest first, of those added this week (as the card counts them). */
const newestPath = () => `${PAGES.customers}?sort=-created_at&created_since=${new Date(Date.now() - NEW_THIS_WEEK_DAYS * DAY_MS).toISOString()}`;

const countFormat = new Intl.NumberFormat();
type Figures = NonNullable<DashboardData['customers']>;

function Stat({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <section className="card stat-card" aria-labelledby={id}>
      <h2 id={id} className="stat-label">
        {label}
      </h2>
      {children}
    </section>
  );
}

/** While loading (`figures` null) only the total's card shows, waiting: the same element then gets the figure. */
function CustomerFigures({ figures, orgName }: { figures: Figures | null; orgName: string | null }) {
  return (
    <div className="stat-grid">
      <Stat id="dash-total" label="Customers">
        {figures ? (
          <p className="stat-value">{countFormat.format(figures.total)}</p>
        ) : (
          <p className="stat-value stat-loading" aria-busy="true">
            <span aria-hidden="true">…</span>
            <span className="sr-only">Loading</span>
          </p>
        )}
        <p className="stat-note">{orgName ? `in ${orgName}` : 'in this organization'}</p>
        {/* Named apart from the sidebar's 'Customers' link. */}
        <Link to="/customers" className="stat-link">
          View customer list
        </Link>
      </Stat>
      {figures && (
        <Stat id="dash-status" label="By status">
          <ul className="status-counts">
            {CUSTOMER_STATUSES.map((status) => {
              const { one, many } = STATUS_COUNT_WORDS[status];
              const n = figures.by_status[status] ?? 0;
              return (
                <li key={status}>
                  <Link to={`/customers?status=${status}`} data-status={status}>
                    <span className="status-count">{countFormat.format(n)}</span> {n === 1 ? one : many}
                  </Link>
                </li>
              );
            })}
          </ul>
        </Stat>
      )}
      {figures && (
        <Stat id="dash-new" label="New customers">
          <dl className="new-counts">
            <div>
              <dt>This week</dt>
              <dd className="stat-value">{countFormat.format(figures.new_this_week)}</dd>
            </div>
            <div>
              <dt>This month</dt>
              <dd className="stat-value">{countFormat.format(figures.new_this_month)}</dd>
            </div>
          </dl>
          <p className="stat-note">
            Added in the last {NEW_THIS_WEEK_DAYS} and {NEW_THIS_MONTH_DAYS} days
          </p>
          <Link to={newestPath()} className="stat-link">
            View newest customers
          </Link>
        </Stat>
      )}
    </div>
  );
}

function RecentlyUpdated({ customers }: { customers: Figures['recently_updated'] }) {
  return (
    <section className="card dash-list" aria-labelledby="dash-recent">
      <h2 id="dash-recent">Recently updated</h2>
      <ol>
        {customers.map((c) => (
          <li key={c.id}>
            <Link to={customerHref(c.id)}>{c.name}</Link>
            <span className="dash-when">
              <When at={c.updated_at} />
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function LatestActivity({ entries }: { entries: AuditEntryView[] }) {
  const rights = { customers: useCan('customers:view'), team: useCan('team:view'), permissions: useCan('permissions:view') };
  return (
    <section className="card dash-list" aria-labelledby="dash-activity">
      <h2 id="dash-activity">Latest activity</h2>
      {entries.length ? (
        <ol>
          {entries.map((e) => (
            <li key={e.id}>
              <span>
                <AuditWords entry={e} view="recent" rights={rights} />
              </span>
              <span className="dash-when">
                <When at={e.at} />
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">Nothing has happened yet.</p>
      )}
      <Link to={PAGES.activity} className="stat-link">
        See all activity
      </Link>
    </section>
  );
}

/** D32 empty organization: what to do first, offered only to who may do it (D9). */
function NoCustomersYet() {
  const canCreate = useCan('customers:create');
  return (
    <section className="card empty-state dash-empty" aria-labelledby="dash-empty">
      <h2 id="dash-empty">No customers yet</h2>
      {canCreate ? (
        <>
          <p>Customers you add show up here, with who changed what and when.</p>
          <Link to={PAGES.newCustomer} className="btn btn-primary">
            Add your first customer
          </Link>
          <p className="dash-or">
            or <Link to={PAGES.importCustomers}>import them from a CSV file</Link>
          </p>
        </>
      ) : (
        <p>When your team adds customers, they show up here.</p>
      )}
    </section>
  );
}

function DashboardContent({ orgName, canViewCustomers }: { orgName: string | null; canViewCustomers: boolean }) {
  const query = useQuery(useCustomersApi().dashboard());
  const { data } = query;
  if (!data && query.status === 'error') {
    return <LoadError what="the dashboard" error={query.error} busy={query.fetching} onRetry={() => void query.refetch().catch(() => undefined)} />;
  }
  const customers = data?.customers ?? null;
  const activity = data?.activity ?? null;
  const recent = customers?.recently_updated ?? [];
  // Children keep their places while loading and after, so the total's card is one element throughout.
  return (
    <div className="dashboard">
      {(data ? customers !== null && customers.total > 0 : canViewCustomers) && <CustomerFigures figures={customers} orgName={orgName} />}
      {customers?.total === 0 && <NoCustomersYet />}
      {!data && <Spinner label="Loading the dashboard…" />}
      {(recent.length > 0 || activity) && (
        <div className="dash-columns">
          {recent.length > 0 && <RecentlyUpdated customers={recent} />}
          {activity && <LatestActivity entries={activity} />}
        </div>
      )}
    </div>
  );
}

/** localStorage: who was greeted on this browser already (short hashes of their emails, the last 20). */
export const WELCOMED_KEY = 'welcomed';
const hashOf = (s: string): string => {
  let h = 5381;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 33) ^ s.charCodeAt(i)) >>> 0;
  return h.toString(36);
};
const welcomed = (): string[] => {
  try {
    return (localStorage.getItem(WELCOMED_KEY) ?? '').split(' ').filter(Boolean);
  } catch {
    return [];
  }
};

/** True on a person's first visit to the dashboard in this browser ('Welcome'); 'Welcome back' after. */
function useFirstVisit(email: string): boolean {
  const [first] = useState(() => email !== '' && !welcomed().includes(hashOf(email.toLowerCase())));
  useEffect(() => {
    if (!first) return;
    const me = hashOf(email.toLowerCase());
    try {
      if (!welcomed().includes(me)) localStorage.setItem(WELCOMED_KEY, [...welcomed().slice(-19), me].join(' '));
    } catch {
      /* no storage: welcomed again next time, nothing worse */
    }
  }, [first, email]);
  return first;
}

export default function DashboardPage() {
  const { user, currentOrg } = useSession();
  const first = useFirstVisit(user?.email ?? '');
  const greeting = first ? 'Welcome' : 'Welcome back';
  // D9: nothing is asked for that the person may not see (the API would answer null for it).
  const canViewCustomers = useCan('customers:view');
  const canViewActivity = useCan('audit:view');
  const hello = user?.first_name ? `${greeting}, ${user.first_name}.` : `${greeting}.`;
  return (
    <Page title="Dashboard" description={currentOrg ? `${hello} You are working in ${currentOrg.name}.` : hello}>
      {(canViewCustomers || canViewActivity) && <DashboardContent orgName={currentOrg?.name ?? null} canViewCustomers={canViewCustomers} />}
    </Page>
  );
}
