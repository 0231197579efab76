// SPEC §1: the Jobs page is a placeholder that shows only placeholder text.
import { PlaceholderPage } from '../../ui/page';

export default function JobsPage() {
  return <PlaceholderPage title="Jobs" text="Scheduling and tracking jobs will live here. This page is a placeholder for now." />;
}
