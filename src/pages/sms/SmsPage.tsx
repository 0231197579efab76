// SPEC §1: the SMS page is a placeholder that shows only placeholder text.
import { PlaceholderPage } from '../../ui/page';

export default function SmsPage() {
  return <PlaceholderPage title="SMS" text="Text messaging with your customers will live here. This page is a placeholder for now." />;
}
