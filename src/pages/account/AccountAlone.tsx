// D51: /account before an organization is chosen (several to choose from): the page alone, outside
// the shell, with the way back to the organization picker.
import { Link } from '../../router/Link';
import { useDocumentTitle } from '../../router/title';
import AccountPage from './AccountPage';

export default function AccountAlone() {
  useDocumentTitle('My account');
  return (
    <main id="main" className="account-alone" tabIndex={-1}>
      <p>
        <Link to="/org-picker">Choose an organization</Link>
      </p>
      <AccountPage />
    </main>
  );
}
