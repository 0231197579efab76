// D46 D47: a location's and a contact's form values, their checks (the contract's limits, as the server
// checks them after trimming) and what a save sends: all fields when adding, the changed ones when editing.
import {
  CONTACT_TEXT_LIMITS,
  LOCATION_TEXT_LIMITS,
  type ContactInput,
  type CustomerContact,
  type CustomerLocation,
  type LocationInput,
} from '../../../../contract/customer-parts';
import { CONTROL_CHARS, PHONE_MIN_DIGITS } from '../../../../contract/customers';
import { EMAIL_SHAPE, phoneDigits } from '../../../../contract/matching';
import { HttpError, isHttpError, isNetworkError } from '../../../http/errors';
import type { FormErrors } from '../../../ui/form';

export type LocationValues = { -readonly [K in keyof typeof LOCATION_TEXT_LIMITS]: string };
export type ContactValues = { -readonly [K in keyof typeof CONTACT_TEXT_LIMITS]: string };

export const LOCATION_LABELS: Record<keyof LocationValues, string> = {
  label: 'Label',
  address_line: 'Street address',
  city: 'City',
  region: 'State / region',
  postal_code: 'Postal code',
  country: 'Country',
  access_notes: 'Access notes',
};
export const CONTACT_LABELS: Record<keyof ContactValues, string> = { name: 'Name', role: 'Role', email: 'Email', phone: 'Phone', note: 'Note' };

/** Multi-line fields: line breaks are kept (D46 access notes, D47 a contact's note). */
const MULTILINE = new Set(['access_notes', 'note']);
/** Control characters other than a line break (or a tab) in a multi-line field; any in the others. */
const controlIn = (field: string, s: string) => (MULTILINE.has(field) ? /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/ : CONTROL_CHARS).test(s);

/** Saved values as boxes (null is an empty box). */
export function toValues<V extends Record<string, string>>(fields: readonly (keyof V)[], saved: object | null): V {
  const s = (saved ?? {}) as Record<string, unknown>;
  return Object.fromEntries(fields.map((f) => [f, typeof s[f as string] === 'string' ? s[f as string] : ''])) as V;
}

/** What the server stores: trimmed, an empty optional field null (a contact's name is required). */
export function toInput(values: Record<string, string>, required = ''): Record<string, string | null> {
  return Object.fromEntries(Object.entries(values).map(([f, v]) => [f, f === required ? v.trim() : v.trim() || null]));
}

/** An edit sends only what differs from the saved part. */
export function changed<I>(input: Record<string, unknown>, saved: object): Partial<I> {
  const s = saved as Record<string, unknown>;
  return Object.fromEntries(Object.entries(input).filter(([f, v]) => (s[f] ?? null) !== v)) as Partial<I>;
}

function checkTexts<V extends Record<string, string>>(v: V, limits: Record<keyof V, number>, labels: Record<keyof V, string>): FormErrors<V> {
  const errors: FormErrors<V> = {};
  for (const f of Object.keys(limits) as (keyof V & string)[]) {
    const s = (v[f] ?? '').trim();
    if (s.length > limits[f]) errors[f] = `${labels[f]} must be at most ${limits[f].toLocaleString('en-US')} characters`;
    else if (controlIn(f, s)) errors[f] = `${labels[f]} cannot contain control characters (such as tabs)`;
  }
  return errors;
}

export const MSG_LOCATION_EMPTY = 'Give the location an address, or at least a label';

/** D46: every field may be empty, but not all of them (the server's rule). */
export function validateLocation(v: LocationValues): FormErrors<LocationValues> {
  const errors = checkTexts(v, LOCATION_TEXT_LIMITS, LOCATION_LABELS);
  const somewhere = (['label', 'address_line', 'city', 'region', 'postal_code', 'country'] as const).some((f) => v[f].trim());
  if (!somewhere) errors.address_line = MSG_LOCATION_EMPTY;
  return errors;
}

/** D47: a name; an email and a phone checked as the customer's are (D22 D39). */
export function validateContact(v: ContactValues): FormErrors<ContactValues> {
  const errors = checkTexts(v, CONTACT_TEXT_LIMITS, CONTACT_LABELS);
  if (!v.name.trim()) errors.name = 'Name is required';
  const email = v.email.trim();
  if (!errors.email && email && !EMAIL_SHAPE.test(email)) errors.email = 'Enter an email address like name@example.com';
  const phone = v.phone.trim();
  if (!errors.phone && phone && phoneDigits(phone).length < PHONE_MIN_DIGITS) errors.phone = `Phone must have at least ${PHONE_MIN_DIGITS} digits`;
  return errors;
}

export const locationInput = (v: LocationValues): Omit<LocationInput, 'primary'> => toInput(v) as Omit<LocationInput, 'primary'>;
export const contactInput = (v: ContactValues): ContactInput => toInput(v, 'name') as unknown as ContactInput;
export type { CustomerContact, CustomerLocation };

/**
 * The server's refusal as the form hook shows it: a 400 on its field in the form's words ('address_line:
 * a location needs…' → 'Street address: a location needs…'), anything else as the form's own message.
 * What was typed stays in the form either way.
 */
export function formFailure(error: unknown, labels: Record<string, string>, noun: string): unknown {
  // D56: a unique custom value another customer's location holds lands on its control too.
  if (isHttpError(error, 409) && error.code === 'duplicate_custom_value' && error.field)
    return new HttpError(400, { ...(error.data as object), detail: error.detail ?? `${labels[error.field] ?? error.field}: is taken` }, error.path);
  if (isHttpError(error, 400) && error.field) {
    const field = error.field.replace(/\[\d+\]$/, '');
    const words = (error.data as { errors?: Record<string, unknown> }).errors?.[field]; // D56: each refused custom value's words
    const rest = typeof words === 'string' ? words : (error.detail ?? 'is not valid').replace(/^[\w.[\]]+:\s*/, '');
    return new HttpError(400, { ...(error.data as object), field, detail: `${labels[field] ?? field}: ${rest}` }, error.path);
  }
  const say = (detail: string) => new HttpError(isHttpError(error) ? error.status : 0, { detail }, isHttpError(error) ? error.path : '');
  if (isNetworkError(error)) return say(`Could not save the ${noun}: the server could not be reached. What you typed is kept; try again when you are back online.`);
  if (isHttpError(error, 404)) return say(`Could not save: this ${noun} no longer exists (someone may have removed it). What you typed is kept.`);
  if (isHttpError(error, 403)) return say(`You no longer have permission to change ${noun}s. What you typed is kept.`);
  return error;
}
