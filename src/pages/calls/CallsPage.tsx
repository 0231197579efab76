// SPEC §1: the Calls page is a placeholder that shows only placeholder text.
import { PlaceholderPage } from '../../ui/page';

export default function CallsPage() {
  return <PlaceholderPage title="Calls" text="Call history and call notes will live here. This page is a placeholder for now." />;
}
