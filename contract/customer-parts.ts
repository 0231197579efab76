// D46 D47: a customer's service locations and contacts, their fields and limits, shared by the app's
// forms and the server's checks so both refuse the same input.
import type { CustomValue, CustomValues } from './custom-fields';
import { CUSTOMER_TEXT_LIMITS } from './customers';

/** D46: at most this many locations per customer. */
export const MAX_LOCATIONS = 50;
/** D47: at most this many contacts per customer (besides the customer's own email and phone). */
export const MAX_CONTACTS = 20;

/** D46: maximum characters per location field (after trimming). */
export const LOCATION_TEXT_LIMITS = {
  label: 100,
  address_line: CUSTOMER_TEXT_LIMITS.address_line,
  city: CUSTOMER_TEXT_LIMITS.city,
  region: CUSTOMER_TEXT_LIMITS.region,
  postal_code: CUSTOMER_TEXT_LIMITS.postal_code,
  country: CUSTOMER_TEXT_LIMITS.country,
  access_notes: 1_000,
} as const;

/** D47: maximum characters per contact field (after trimming). */
export const CONTACT_TEXT_LIMITS = {
  name: CUSTOMER_TEXT_LIMITS.name,
  role: 100,
  email: CUSTOMER_TEXT_LIMITS.email,
  phone: CUSTOMER_TEXT_LIMITS.phone,
  note: 1_000,
} as const;

/** D46: a service location as GET /v1/customers/{id}/locations/ answers it. */
export interface CustomerLocation {
  id: number;
  label: string | null;
  address_line: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
  /** Gate code, pets, where the shut-off valve is; may span lines. */
  access_notes: string | null;
  primary: boolean;
  /** D56: the set values of the organization's location fields (archived fields left out); every answer has it. */
  custom?: CustomValues;
  created_at: string;
  updated_at: string;
}

export const LOCATION_INPUT_FIELDS = ['label', 'address_line', 'city', 'region', 'postal_code', 'country', 'access_notes', 'primary'] as const;
export type LocationInput = Pick<CustomerLocation, (typeof LOCATION_INPUT_FIELDS)[number]> & { custom?: Record<string, CustomValue | null> | null }; // D56

/** D47: another person of the customer's (a tenant, a property manager, billing). */
export interface CustomerContact {
  id: number;
  name: string;
  role: string | null;
  email: string | null;
  phone: string | null;
  note: string | null;
  created_at: string;
  updated_at: string;
}

export const CONTACT_INPUT_FIELDS = ['name', 'role', 'email', 'phone', 'note'] as const;
export type ContactInput = Pick<CustomerContact, (typeof CONTACT_INPUT_FIELDS)[number]>;
