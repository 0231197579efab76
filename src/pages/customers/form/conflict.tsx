// D31's panel is rarely shown, so it loads the first time it is needed, apart from the form
// (ConflictPanel.tsx); an edit's save starts loading it beside the request that may meet a conflict.
import { lazy, Suspense } from 'react';
import type { ConflictPanelProps } from './ConflictPanel';
import { CUSTOMER_STATUS_LABELS, CUSTOMER_TYPE_LABELS, type CustomerStatus, type CustomerType } from '../../../../contract/customers';
import { FIELD_LABELS } from './values';

const load = () => import('./ConflictPanel');
const Panel = lazy(() => load().then((m) => ({ default: m.ConflictPanel })));

export const preloadConflict = () => void load().catch(() => undefined);

/** A value as the panel's table shows it ('' when empty; D48's flag as Yes or No, a base without it: No). */
function valueText(field: string, value: unknown): string {
  if (field === 'status') return CUSTOMER_STATUS_LABELS[value as CustomerStatus];
  if (field === 'type') return CUSTOMER_TYPE_LABELS[value as CustomerType] ?? '';
  if (field === 'do_not_service') return value === true ? 'Yes' : 'No';
  return Array.isArray(value) ? value.join(', ') : ((value as string | null) ?? '');
}

/** The panel (it takes the focus when it appears); until its code is there the form stays as it is. */
export function Conflict(props: Omit<ConflictPanelProps, 'fieldLabels' | 'valueText'>) {
  return (
    <Suspense fallback={null}>
      <Panel fieldLabels={FIELD_LABELS} valueText={valueText} {...props} />
    </Suspense>
  );
}
