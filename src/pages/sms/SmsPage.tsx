// SPEC §1: the SMS page is a placeholder that shows only placeholder text.
import { Page, Placeholder } from '../../ui/page';

export default function SmsPage() {
  return (
    <Page title="SMS">
      <Placeholder>
        <p>Text messaging with your customers will live here. This page is a placeholder for now.</p>
      </Placeholder>
    </Page>
  );
}
