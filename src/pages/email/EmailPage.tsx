// SPEC §1: the Email page is a placeholder that shows only placeholder text.
import { Page, Placeholder } from '../../ui/page';

export default function EmailPage() {
  return (
    <Page title="Email">
      <Placeholder>
        <p>Email conversations with your customers will live here. This page is a placeholder for now.</p>
      </Placeholder>
    </Page>
  );
}
