// D23's warning loads apart from the form (each form page ≤ 10 KB gzip), as the service section does:
// its import starts when the form's module loads, long before a pause in typing asks for duplicates.
import { lazy, Suspense } from 'react';
import type { DuplicateWarningProps } from './DuplicateWarning';

const load = () => import('./DuplicateWarning');
const Warning = lazy(() => load().then((m) => ({ default: m.DuplicateWarning })));
void load().catch(() => undefined);

export function Duplicates(props: DuplicateWarningProps) {
  return (
    <Suspense fallback={null}>
      <Warning {...props} />
    </Suspense>
  );
}
