// D22: the customer form's values, its checks and what a save sends. The limits are the contract's, so
// the form refuses exactly what the server refuses; D31: an edit sends only the fields that changed.
import {
  CONTROL_CHARS,
  CUSTOMER_STATUSES,
  CUSTOMER_TEXT_LIMITS,
  DEFAULT_CUSTOMER_STATUS,
  EMAIL_SHAPE,
  MAX_TAGS,
  PHONE_MIN_DIGITS,
  TAG_MAX_LENGTH,
  phoneDigits,
  type Customer,
  type CustomerInput,
  type CustomerInputField,
  type CustomerStatus,
  type CustomerTextField,
} from '../../../../contract/customers';
import type { FormErrors } from '../../../ui/form';

/** The text fields in the order the form shows them (and D15: the first invalid one gets the focus). */
export const TEXT_FIELDS = [
  'name',
  'company',
  'email',
  'phone',
  'address_line',
  'city',
  'region',
  'postal_code',
  'country',
] as const satisfies readonly CustomerTextField[];

export const FIELD_LABELS: Record<CustomerInputField, string> = {
  name: 'Name',
  company: 'Company',
  email: 'Email',
  phone: 'Phone',
  address_line: 'Street address',
  city: 'City',
  region: 'State / region',
  postal_code: 'Postal code',
  country: 'Country',
  status: 'Status',
  tags: 'Tags',
};

/** What the form holds: every D22 field as typed (text as strings, tags as a list). */
export type CustomerValues = { [K in CustomerTextField]: string } & { status: CustomerStatus; tags: readonly string[] };

/** D22: a new customer is active unless chosen. */
export const EMPTY_VALUES: CustomerValues = {
  name: '',
  company: '',
  email: '',
  phone: '',
  address_line: '',
  city: '',
  region: '',
  postal_code: '',
  country: '',
  status: DEFAULT_CUSTOMER_STATUS,
  tags: [],
};

/** A saved customer as form values (null fields are empty boxes). */
export function toValues(c: Pick<Customer, CustomerInputField>): CustomerValues {
  const v = { ...EMPTY_VALUES, status: c.status, tags: [...c.tags] };
  for (const f of TEXT_FIELDS) v[f] = c[f] ?? '';
  return v;
}

/** D22: what the server stores: text trimmed, an empty optional field null. */
export function toInput(v: CustomerValues): CustomerInput {
  const input = { status: v.status, tags: v.tags.map((t) => t.trim()) } as CustomerInput;
  for (const f of TEXT_FIELDS) {
    const s = v[f].trim();
    (input as Record<string, unknown>)[f] = f === 'name' ? s : s || null;
  }
  return input;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** D31: the fields whose value differs from the record the person started from, as the PATCH sends them. */
export function changedFields(v: CustomerValues, base: Pick<Customer, CustomerInputField>): Partial<CustomerInput> {
  const input = toInput(v);
  const changes: Partial<Record<CustomerInputField, unknown>> = {};
  for (const [f, value] of Object.entries(input) as [CustomerInputField, unknown][]) {
    if (!same(value, base[f] ?? (f === 'tags' ? [] : null))) changes[f] = value;
  }
  return changes as Partial<CustomerInput>;
}

/** D22: one tag's problem (before it is added to `tags`), or null when it may be added. */
export function tagProblem(tag: string, tags: readonly string[]): string | null {
  if (tags.length >= MAX_TAGS) return `A customer can have at most ${MAX_TAGS} tags`;
  if (tag.length > TAG_MAX_LENGTH) return `A tag can have at most ${TAG_MAX_LENGTH} characters`;
  if (CONTROL_CHARS.test(tag)) return 'Tags cannot contain control characters';
  if (tags.some((t) => t.toLowerCase() === tag.toLowerCase())) return `"${tag}" is already a tag`;
  return null;
}

/** D22's rules, checked as the server checks them (after trimming), with the contract's limits. */
export function validateCustomer(v: CustomerValues, tagDraft = ''): FormErrors<CustomerValues> {
  const errors: FormErrors<CustomerValues> = {};
  for (const f of TEXT_FIELDS) {
    const s = v[f].trim();
    const label = FIELD_LABELS[f];
    if (s.length > CUSTOMER_TEXT_LIMITS[f]) errors[f] = `${label} must be at most ${CUSTOMER_TEXT_LIMITS[f]} characters`;
    else if (CONTROL_CHARS.test(s)) errors[f] = `${label} cannot contain control characters (such as tabs)`;
  }
  if (!v.name.trim()) errors.name = 'Name is required';
  const email = v.email.trim();
  if (!errors.email && email && !EMAIL_SHAPE.test(email)) errors.email = 'Enter an email address like name@example.com';
  const phone = v.phone.trim();
  if (!errors.phone && phone && phoneDigits(phone).length < PHONE_MIN_DIGITS) errors.phone = `Phone must have at least ${PHONE_MIN_DIGITS} digits`;
  if (!CUSTOMER_STATUSES.includes(v.status)) errors.status = 'Choose a status';
  // A tag typed but not yet added counts too: it is saved with the rest (nothing typed is lost).
  const draft = tagDraft.trim();
  const tags = v.tags.map((t) => t.trim());
  if (tags.length > MAX_TAGS) errors.tags = `A customer can have at most ${MAX_TAGS} tags`;
  else if (draft) errors.tags = tagProblem(draft, tags) ?? undefined;
  return errors;
}

/** The tags with a typed, not yet added tag appended (when there is one). */
export const withDraft = (tags: readonly string[], draft: string): string[] => (draft.trim() ? [...tags, draft.trim()] : [...tags]);

/** Whether the email or phone looks complete enough to look for duplicates (D23). */
export function duplicateQuery(v: Pick<CustomerValues, 'email' | 'phone'>): { email?: string; phone?: string } | null {
  const email = v.email.trim().toLowerCase();
  const phone = v.phone.trim();
  const q: { email?: string; phone?: string } = {};
  if (EMAIL_SHAPE.test(email) && email.length <= CUSTOMER_TEXT_LIMITS.email) q.email = email;
  if (phoneDigits(phone).length >= PHONE_MIN_DIGITS && phone.length <= CUSTOMER_TEXT_LIMITS.phone) q.phone = phone;
  return q.email || q.phone ? q : null;
}

/**
 * D19: a 400 names its field as the server's parameter ('tags[3]') and words its detail after it
 * ('email: must be an email address'); on the form it reads "Email must be an email address".
 */
export function serverFieldMessage(field: string, detail: string | null): { field: string; message: string } {
  const name = field.replace(/\[\d+\]$/, '') as CustomerInputField;
  const label = FIELD_LABELS[name] ?? name;
  const rest = (detail ?? 'is not valid').replace(/^[\w[\]]+:\s*/, '');
  return { field: name, message: `${label} ${rest}` };
}
