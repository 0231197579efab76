// D27 Import (customers/import, customers:create): the upload, preview and commit come with their
// own issue; until then the list's Import link lands here rather than on "Customer not found".
import { PlaceholderPage } from '../../ui/page';

export default function ImportCustomersPage() {
  return <PlaceholderPage title="Import Customers" text="Importing customers from a CSV file will live here. This page is a placeholder for now." />;
}
