// SPEC §2: the dashboard's contents are not specified; it greets the person and sums up what they may see.
import { useCan, useSession } from '../../session/use-session';
import { Page } from '../../ui/page';
import { CustomerSummary } from './CustomerSummary';

export default function DashboardPage() {
  const { user, currentOrg } = useSession();
  const canViewCustomers = useCan('customers:view');
  const hello = user?.first_name ? `Welcome back, ${user.first_name}.` : 'Welcome back.';
  return (
    <Page title="Dashboard" description={currentOrg ? `${hello} You are working in ${currentOrg.name}.` : hello}>
      {/* D9: only what the person may open. */}
      {canViewCustomers && (
        <div className="stat-grid">
          <CustomerSummary />
        </div>
      )}
    </Page>
  );
}
