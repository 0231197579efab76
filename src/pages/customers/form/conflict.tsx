// D31's panel is rarely shown, so it loads the first time it is needed, apart from the form
// (ConflictPanel.tsx); an edit's save starts loading it beside the request that may meet a conflict.
import { lazy, Suspense } from 'react';
import type { ConflictPanelProps } from './ConflictPanel';
import { CUSTOMER_STATUS_LABELS } from '../../../../contract/customers';
import { FIELD_LABELS } from './values';

const load = () => import('./ConflictPanel');
const Panel = lazy(() => load().then((m) => ({ default: m.ConflictPanel })));

export const preloadConflict = () => void load().catch(() => undefined);

/** The panel (it takes the focus when it appears); until its code is there the form stays as it is. */
export function Conflict(props: Omit<ConflictPanelProps, 'fieldLabels' | 'statusLabels'>) {
  return (
    <Suspense fallback={null}>
      <Panel fieldLabels={FIELD_LABELS} statusLabels={CUSTOMER_STATUS_LABELS} {...props} />
    </Suspense>
  );
}
