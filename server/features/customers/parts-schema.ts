// D46 D47: what the locations and contacts routes accept. Limits come from the contract the app's forms use.
import { CONTACT_TEXT_LIMITS, LOCATION_TEXT_LIMITS } from '../../../contract/customer-parts';
import { bool, optional, text, withDefault } from '../../schema';
import { customObject } from '../../custom-values';
import { email, optionalText, phone } from './schema';

/** D46: every field may be empty, but not all of them (locations-repo.ts); access notes may span lines. */
export const locationBody = {
  label: optionalText(LOCATION_TEXT_LIMITS.label),
  address_line: optionalText(LOCATION_TEXT_LIMITS.address_line),
  city: optionalText(LOCATION_TEXT_LIMITS.city),
  region: optionalText(LOCATION_TEXT_LIMITS.region),
  postal_code: optionalText(LOCATION_TEXT_LIMITS.postal_code),
  country: optionalText(LOCATION_TEXT_LIMITS.country),
  access_notes: optional(text({ max: LOCATION_TEXT_LIMITS.access_notes, multiline: true })),
  primary: withDefault(bool(), false),
  custom: customObject, // D56: checked by the location fields' types (locations-repo.ts)
};
export const locationPatch = { ...locationBody, primary: bool() };

/** D47: a name, and the rest as known; email and phone checked as the customer's are (D22 D39). */
export const contactBody = {
  name: text({ max: CONTACT_TEXT_LIMITS.name }),
  role: optionalText(CONTACT_TEXT_LIMITS.role),
  email: optional(email),
  phone: optional(phone),
  note: optional(text({ max: CONTACT_TEXT_LIMITS.note, multiline: true })),
};
