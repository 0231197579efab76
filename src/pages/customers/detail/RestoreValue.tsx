// D50: each field change in the customer's timeline offers 'Restore this value' to who has customers:update:
// an edit like any other (a PATCH of that one field with the version the page shows, D31), which is a new
// timeline entry. Not offered when the customer already has that value. A stale version (409 conflict)
// restores nothing: the page reloads the customer and says so. Location and contact changes have none
// (docs/behaviour.md), nor changes of a customer merged into this one (D49: the entry names that customer).
// D56: a custom field's value is restored inside `custom`, while the field is active.
import { useMemo, useState } from 'react';
import type { AuditEntryView } from '../../../../contract/audit';
import type { Customer, CustomerInput } from '../../../../contract/customers';
import { customerKeys, useCustomersApi } from '../../../api/customers';
import { fieldWord, shortText, shortValue } from '../../../audit/words';
import { isHttpError } from '../../../http/errors';
import { useMutation, useQuery, useQueryCache } from '../../../query/use-query';
import { failedWords } from '../../../ui/failed-words';
import { toast } from '../../../ui/toast';
import { useCustomFields } from '../custom/use-fields';
import { Problem } from './failure';

export const RESTORE_LABEL = 'Restore this value';
export const MSG_RESTORE_CONFLICT =
  'Someone changed this customer meanwhile, so nothing was restored. The page now shows the current values: restore again if the old value is still wanted.';

/**
 * What a restore never writes: the record's own bookkeeping and parts (an update's entry names only the
 * fields a person edits, D22 D48; this keeps an odd entry from sending more). Not the contract's field
 * lists: importing them would grow the shared chunk every customer form loads.
 */
const NOT_RESTORABLE = new Set(['id', 'version', 'created_at', 'created_by', 'updated_at', 'updated_by', 'locations', 'contacts']);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const isChange = (v: unknown): v is { from: unknown; to: unknown } => typeof v === 'object' && v !== null && 'from' in v && 'to' in v;

/** One change to restore: the field (`custom.<key>` for D56's), its old value, and its name in a sentence. */
export interface Restorable {
  field: string;
  from: unknown;
  name: string;
  /** The old value in words (a choice by its option's label as the entry has it). */
  text: string;
}

/**
 * An entry's changes that can be restored on this customer now: edited fields whose old value it no longer
 * has. D56: a custom field's while the field is active (`active`: the keys of the active customer fields).
 */
export function restorable(entry: Pick<AuditEntryView, 'action' | 'changes' | 'target'>, customer: Customer, active: ReadonlySet<string> = new Set()): Restorable[] {
  // A survivor's timeline also shows the entries of customers merged into it (their own target, D49): their
  // values were another customer's, so only the page's own customer's changes are offered.
  if (entry.action !== 'customer.updated' || entry.target.id !== customer.id) return [];
  const now = customer as unknown as Record<string, unknown>;
  return Object.entries(entry.changes ?? {}).flatMap(([field, c]): Restorable[] => {
    if (!isChange(c)) return [];
    const key = field.startsWith('custom.') ? field.slice(7) : null;
    if (key !== null) {
      const { label, shown } = c as { label?: unknown; shown?: { from?: unknown } };
      const text = typeof shown?.from === 'string' ? shortText(shown.from) : shortValue(c.from);
      return active.has(key) && !same(customer.custom?.[key], c.from) ? [{ field, from: c.from, name: typeof label === 'string' ? label : key, text }] : [];
    }
    return field in now && !NOT_RESTORABLE.has(field) && !same(now[field], c.from)
      ? [{ field, from: c.from, name: fieldWord(field), text: shortValue(c.from, field) }]
      : [];
  });
}

export function RestoreValues({ entry, customerId, onRestored }: { entry: AuditEntryView; customerId: number; onRestored: () => void }) {
  const api = useCustomersApi();
  const cache = useQueryCache();
  const customer = useQuery(api.get(customerId)).data;
  const update = useMutation(api.update(customerId));
  const [error, setError] = useState<string | null>(null);
  const defs = useCustomFields('customer').fields;
  const active = useMemo(() => new Set((defs ?? []).map((f) => f.key)), [defs]);
  const fields = customer ? restorable(entry, customer, active) : [];
  const several = Object.values(entry.changes ?? {}).filter(isChange).length > 1;
  if (!fields.length && !error) return null;

  const restore = async ({ field, from, name }: Restorable) => {
    if (!customer || update.status === 'pending') return;
    setError(null);
    // D56: a custom field's value goes back inside `custom` (null clears it).
    const changes = field.startsWith('custom.') ? { custom: { [field.slice(7)]: from } } : { [field]: from };
    try {
      await update.mutate({ changes: changes as Partial<CustomerInput>, version: customer.version });
    } catch (e) {
      if (isHttpError(e, 409) && e.code === 'conflict') {
        cache.invalidate(customerKeys.detail(api.orgId, customerId));
        return setError(MSG_RESTORE_CONFLICT);
      }
      return setError(failedWords(e, `restore the ${name}`));
    }
    toast.success(`Restored the ${name}`);
    onRestored(); // this button goes: the customer has the value now
  };

  return (
    <div className="restore-value">
      {fields.map((r) => {
        const label = several ? `Restore the old ${r.name}` : RESTORE_LABEL;
        const value = `“${r.text}”`;
        return (
          <button
            key={r.field}
            type="button"
            className="link-btn"
            aria-label={several ? `${label} ${value}` : `${label}: ${r.name} ${value}`}
            aria-disabled={update.status === 'pending' || undefined}
            onClick={() => void restore(r)}
          >
            {label}
          </button>
        );
      })}
      <Problem text={error} />
    </div>
  );
}
