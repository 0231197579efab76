// SPEC §2: a centred spinner while the session loads and while a lazy page loads.

/** A centred spinner; `label` is announced (and shown when `showLabel`), e.g. 'Checking session...'. */
export function Spinner({ label = 'Loading…', showLabel = false }: { label?: string; showLabel?: boolean }) {
  return (
    <div className="spinner-wrap" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className={showLabel ? 'spinner-label' : 'sr-only'}>{label}</span>
    </div>
  );
}
