// SPEC §1: the Calls page is a placeholder that shows only placeholder text.
import { Page, Placeholder } from '../../ui/page';

export default function CallsPage() {
  return (
    <Page title="Calls">
      <Placeholder>
        <p>Call history and call notes will live here. This page is a placeholder for now.</p>
      </Placeholder>
    </Page>
  );
}
