// SPEC §2: the dashboard's contents are not specified; it shows its title.
import { useSession } from '../../session/use-session';
import { Page } from '../../ui/page';

export default function DashboardPage() {
  const { user, currentOrg } = useSession();
  const hello = user?.first_name ? `Welcome back, ${user.first_name}.` : 'Welcome back.';
  return <Page title="Dashboard" description={currentOrg ? `${hello} You are working in ${currentOrg.name}.` : hello} />;
}
