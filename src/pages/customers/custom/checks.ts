// D56: a form's custom values checked as the server checks them. They load with the controls
// (CustomInputs.tsx): a field not drawn yet holds nothing typed, and the server checks it anyway.
import { CUSTOM_LONG_TEXT_MAX, CUSTOM_TEXT_MAX, type CustomField, type CustomValues } from '../../../../contract/custom-fields';
import { CONTROL_CHARS } from '../../../../contract/customers';
import { isDate } from './text';
import { customName, heldValue, parseNumber, type CustomFormValue } from './values';

const MULTILINE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** One field's problem in the form's words, or undefined. `saved` is null for a new record (every required field then needs a value). */
function problem(f: CustomField, held: CustomFormValue, saved: CustomValues | null): string | undefined {
  const empty = Array.isArray(held) ? held.length === 0 : !(held as string).trim();
  // The server refuses a required field left out of a new record or cleared; one never set stays as it was.
  if (empty) return f.required && (saved === null || saved[f.key] !== undefined) ? `${f.label} is required` : undefined;
  const ids = new Set(f.options.map((o) => o.id));
  if (Array.isArray(held)) return held.every((id) => ids.has(id)) ? undefined : `Choose ${f.label} from its options`;
  const s = (held as string).trim();
  switch (f.type) {
    case 'text':
    case 'long_text': {
      const max = f.type === 'text' ? CUSTOM_TEXT_MAX : CUSTOM_LONG_TEXT_MAX;
      if (s.length > max) return `${f.label} must be at most ${max.toLocaleString('en-US')} characters`;
      return (f.type === 'text' ? CONTROL_CHARS : MULTILINE_CONTROL).test(s) ? `${f.label} cannot contain control characters (such as tabs)` : undefined;
    }
    case 'number':
      return parseNumber(s) === null ? `${f.label} must be a number, like 12 or 4.5` : undefined;
    case 'date':
      return isDate(s) ? undefined : `${f.label} must be a date`;
    case 'choice':
      return ids.has(s) ? undefined : `Choose ${f.label} from its options`;
    default:
      return undefined;
  }
}

/** D56: each field's problem under its form name, as the server would refuse it. */
export function validateCustom(fields: readonly CustomField[], values: Readonly<Record<string, unknown>>, saved: CustomValues | null): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const p = problem(f, heldValue(f, values, saved ?? undefined), saved);
    if (p) errors[customName(f)] = p;
  }
  return errors;
}
