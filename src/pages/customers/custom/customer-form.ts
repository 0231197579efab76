// D56: what the customer form does with its custom values: what a save sends (a new customer's set
// values; an edit's changed ones, a cleared one as null), and a refusal naming one put on its control.
import type { CustomField, CustomValues } from '../../../../contract/custom-fields';
import { HttpError, isHttpError } from '../../../http/errors';
import { serverFieldMessage, type FormInput } from '../form/values';
import { customChanges, customInput, customMessage, isCustomName } from './values';

export { CustomSection, validateCustom } from './inputs';
export { useCustomFields } from './use-fields';
export { customInput, customName, draftCustom, toFormValue, toFormValues } from './values';

/** D31 D56: the record the person started from, as a save would send it, with its custom values. */
export type CustomerBase = FormInput & { custom?: CustomValues };

/** An error the form hook places on a field (it places a 400 naming one of its fields). */
export const onField = (error: HttpError, field: string, message: string) => new HttpError(400, { ...(error.data as object), field, detail: message }, error.path);

/** A new customer's body, with `custom` when any value is set. */
export function withCustom<T extends object>(input: T, fields: readonly CustomField[], values: Readonly<Record<string, unknown>>) {
  const custom = customInput(fields, values);
  return Object.keys(custom).length > 0 ? { ...input, custom } : input;
}

/** An edit's changes, with the changed custom values under `custom` when any. */
export function withCustomChanges<T extends object>(
  changes: T,
  fields: readonly CustomField[],
  values: Readonly<Record<string, unknown>>,
  saved: CustomValues | undefined,
) {
  const custom = customChanges(fields, values, saved);
  return Object.keys(custom).length > 0 ? { ...changes, custom } : changes;
}

/**
 * D19: a 400 naming a field on that field in the form's words; D56 one naming `custom.<key>`, and a 409 for
 * a unique value another customer has, on its control. Null for other refusals.
 */
export function fieldRefusal(error: unknown, fields: readonly CustomField[]): HttpError | null {
  if (isHttpError(error, 409) && error.code === 'duplicate_custom_value' && error.field) return onField(error, error.field, error.detail ?? 'is taken');
  if (!isHttpError(error, 400) || !error.field) return null;
  if (isCustomName(error.field)) return onField(error, error.field, customMessage(fields, error.field, error.data, error.detail));
  const { field, message } = serverFieldMessage(error.field, error.detail);
  return onField(error, field, message);
}

/**
 * D56: a save; refused for fields archived since the form opened (`archived` in the 400), the rest is saved
 * again without them (archived.ts, loaded then) and `leftOut` says which, in words; else the refusal.
 */
export async function leavingArchived<T extends object, R>(
  body: T,
  send: (body: T) => Promise<R>,
  fields: readonly CustomField[],
): Promise<{ saved: R; leftOut: string }> {
  try {
    return { saved: await send(body), leftOut: '' };
  } catch (error) {
    if (!isHttpError(error, 400) || !(error.data as { archived?: unknown }).archived) throw error;
    return (await import('./archived')).saveTheRest(error, body, send, fields);
  }
}
