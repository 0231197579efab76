// SPEC §1: the Jobs page is a placeholder that shows only placeholder text.
import { Page, Placeholder } from '../../ui/page';

export default function JobsPage() {
  return (
    <Page title="Jobs">
      <Placeholder>
        <p>Scheduling and tracking jobs will live here. This page is a placeholder for now.</p>
      </Placeholder>
    </Page>
  );
}
