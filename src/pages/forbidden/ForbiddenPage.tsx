// SPEC §2 / §8, D9: a failed permission or role check lands here.
import { Link } from '../../router/Link';

export const FORBIDDEN_TEXT = 'You do not have permission to view this page.';

export default function ForbiddenPage() {
  return (
    <section className="card empty-state" aria-labelledby="forbidden-title">
      <h1 id="forbidden-title">Access denied</h1>
      <p>{FORBIDDEN_TEXT}</p>
      <Link to="/dashboard" className="btn">
        Go to Dashboard
      </Link>
    </section>
  );
}
