// D22: the customer form's values, its checks and what a save sends. The limits are the contract's, so
// the form refuses exactly what the server refuses; D31: an edit sends only the fields that changed.
import {
  CONTROL_CHARS,
  CUSTOMER_STATUSES,
  CUSTOMER_TEXT_LIMITS,
  CUSTOMER_TYPES,
  DEFAULT_CUSTOMER_STATUS,
  DO_NOT_SERVICE_REASON_MAX_LENGTH,
  LEAD_SOURCE_MAX_LENGTH,
  MAX_TAGS,
  PHONE_MIN_DIGITS,
  TAG_MAX_LENGTH,
  type Customer,
  type CustomerInput,
  type CustomerInputField,
  type CustomerServiceField,
  type CustomerServiceInput,
  type CustomerStatus,
  type CustomerTextField,
  type CustomerType,
} from '../../../../contract/customers';
import type { CustomerAssignInput } from '../../../../contract/assignment';
import { EMAIL_SHAPE, phoneDigits } from '../../../../contract/matching';
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

/** D48: the form's fields beyond D22's; D59 the assignee. */
export type FormField = CustomerInputField | CustomerServiceField | 'assigned_to';
/** What a save sends (an edit: the part of it that changed). */
export type FormInput = CustomerInput & CustomerServiceInput & Pick<CustomerAssignInput, 'assigned_to'>;

export const FIELD_LABELS: Record<FormField, string> = {
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
  type: 'Type',
  lead_source: 'Lead source',
  do_not_service: 'Do not service',
  do_not_service_reason: 'Reason not to service',
  assigned_to: 'Assigned to',
};

/** D48: the text fields beyond D22's, with their limits. */
const SERVICE_LIMITS = { lead_source: LEAD_SOURCE_MAX_LENGTH, do_not_service_reason: DO_NOT_SERVICE_REASON_MAX_LENGTH } as const;

/** What the form holds: every D22 field as typed (text as strings, tags as a list). */
export type CustomerValues = { [K in CustomerTextField]: string } & {
  status: CustomerStatus;
  tags: readonly string[];
  type: CustomerType;
  lead_source: string;
  do_not_service: boolean;
  do_not_service_reason: string;
  /** D59: the assignee's user id as text, '' for none. */
  assigned_to: string;
};

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
  type: CUSTOMER_TYPES[0], // D48: residential unless chosen
  lead_source: '',
  do_not_service: false,
  do_not_service_reason: '',
  assigned_to: '',
};

/** A saved customer as form values (null fields are empty boxes). */
export function toValues(c: Pick<Customer, FormField>): CustomerValues {
  const v = { ...EMPTY_VALUES, status: c.status, tags: [...c.tags], type: c.type ?? EMPTY_VALUES.type, do_not_service: c.do_not_service === true };
  for (const f of TEXT_FIELDS) v[f] = c[f] ?? '';
  v.lead_source = c.lead_source ?? '';
  v.do_not_service_reason = c.do_not_service_reason ?? '';
  v.assigned_to = String(c.assigned_to?.id ?? '');
  return v;
}

/**
 * D22: what the server stores: text trimmed, an empty optional field null. D48: with the flag off the
 * reason is sent empty (it is kept in the form meanwhile; behaviour.md).
 */
export function toInput(v: CustomerValues): FormInput {
  const reason = v.do_not_service ? v.do_not_service_reason.trim() : '';
  const input = {
    status: v.status,
    tags: v.tags.map((t) => t.trim()),
    type: v.type,
    lead_source: v.lead_source.trim() || null,
    do_not_service: v.do_not_service,
    do_not_service_reason: reason || null,
    assigned_to: +v.assigned_to || null,
  } as FormInput;
  for (const f of TEXT_FIELDS) {
    const s = v[f].trim();
    (input as Record<string, unknown>)[f] = f === 'name' ? s : s || null;
  }
  return input;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** D31: the fields whose value differs from the record the person started from, as the PATCH sends them. */
export function changedFields(v: CustomerValues, base: Partial<FormInput>): Partial<FormInput> {
  const input = toInput(v);
  const changes: Partial<Record<FormField, unknown>> = {};
  for (const [f, value] of Object.entries(input) as [FormField, unknown][]) {
    if (!same(value, base[f] ?? EMPTY_INPUT[f] ?? null)) changes[f] = value;
  }
  return changes as Partial<FormInput>;
}

/** A base without a field (a draft kept before the field existed) counts it as the server's default. */
const EMPTY_INPUT: Partial<Record<FormField, unknown>> = { tags: [], type: EMPTY_VALUES.type, do_not_service: false, assigned_to: null };

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
  // D48: the reason is checked only while the flag is on (otherwise it is not sent).
  const limits: Record<string, number> = { ...CUSTOMER_TEXT_LIMITS, ...SERVICE_LIMITS };
  for (const f of [...TEXT_FIELDS, 'lead_source', ...(v.do_not_service ? ['do_not_service_reason'] : [])] as (keyof typeof SERVICE_LIMITS | CustomerTextField)[]) {
    const s = v[f].trim();
    const label = FIELD_LABELS[f];
    if (s.length > limits[f]!) errors[f] = `${label} must be at most ${limits[f]} characters`;
    else if (CONTROL_CHARS.test(s)) errors[f] = `${label} cannot contain control characters (such as tabs)`;
  }
  if (!v.name.trim()) errors.name = 'Name is required';
  const email = v.email.trim();
  if (!errors.email && email && !EMAIL_SHAPE.test(email)) errors.email = 'Enter an email address like name@example.com';
  const phone = v.phone.trim();
  if (!errors.phone && phone && phoneDigits(phone).length < PHONE_MIN_DIGITS) errors.phone = `Phone must have at least ${PHONE_MIN_DIGITS} digits`;
  if (!CUSTOMER_STATUSES.includes(v.status)) errors.status = 'Choose a status';
  if (!CUSTOMER_TYPES.includes(v.type)) errors.type = 'Choose a type';
  // A tag typed but not yet added counts too: it is saved with the rest (nothing typed is lost).
  const draft = tagDraft.trim();
  const tags = v.tags.map((t) => t.trim());
  if (tags.length > MAX_TAGS) errors.tags = `A customer can have at most ${MAX_TAGS} tags`;
  else if (draft) errors.tags = tagProblem(draft, tags) ?? undefined;
  return errors;
}

/** The tags with a typed, not yet added tag appended (when there is one). */
export const withDraft = (tags: readonly string[], draft: string): string[] => (draft.trim() ? [...tags, draft.trim()] : [...tags]);

/** D23: on an edit, the duplicate look-up waits until the email, phone or name differs from the record's. */
export const duplicateFieldsChanged = (v: CustomerValues, base: Partial<Record<'email' | 'phone' | 'name', string | null>>): boolean =>
  (['email', 'phone', 'name'] as const).some((f) => v[f].trim() !== (base[f] ?? ''));

/**
 * D19: a 400 names its field as the server's parameter ('tags[3]') and words its detail after it
 * ('email: must be an email address'); on the form it reads "Email must be an email address".
 */
export function serverFieldMessage(field: string, detail: string | null): { field: string; message: string } {
  const name = field.replace(/\[\d+\]$/, '') as FormField;
  const label = FIELD_LABELS[name] ?? name;
  const rest = (detail ?? 'is not valid').replace(/^[\w[\]]+:\s*/, '');
  return { field: name, message: `${label} ${rest}` };
}
