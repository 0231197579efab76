// SPEC §1: the Email page is a placeholder that shows only placeholder text.
import { PlaceholderPage } from '../../ui/page';

export default function EmailPage() {
  return <PlaceholderPage title="Email" text="Email conversations with your customers will live here. This page is a placeholder for now." />;
}
