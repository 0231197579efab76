// D12: a bad id (or an unknown record) is a not-found state inside the shell, not a crash.
import { Link } from '../router/Link';
import { PAGES } from '../router/paths';

export function NotFound({
  title = 'Not found',
  message = 'We could not find what you were looking for.',
  backTo = PAGES.dashboard,
  backLabel = 'Go to Dashboard',
}: {
  title?: string;
  message?: string;
  backTo?: string;
  backLabel?: string;
}) {
  return (
    <section className="card empty-state" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{title}</h1>
      <p>{message}</p>
      <Link to={backTo} className="btn">
        {backLabel}
      </Link>
    </section>
  );
}
