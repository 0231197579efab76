// D10: Permissions lives at /permissions (permissions:view). Its contents are not specified yet.
import { Page } from '../../ui/page';

export default function PermissionsPage() {
  return <Page title="Permissions" description="What each role in your organization may do." />;
}
