// D10: Team lives at /team (team:view). Its contents are not specified yet.
import { Page } from '../../ui/page';

export default function TeamPage() {
  return <Page title="Team" description="The people in your organization." />;
}
