// D39: the only place the app makes `mailto:` and `tel:` links, so the customers list and the customer page
// build them alike, by encoding: nothing a person typed can add a header to a mail or digits to a call.
import { splitPhone } from '../../contract/matching';

/**
 * `mailto:` for an address (RFC 6068): the local part and the domain percent-encoded, so `?`, `&`, `%` or
 * `#` (which D39's check refuses anyway) could never start headers such as `?bcc=`.
 */
export function mailtoHref(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return `mailto:${encodeURIComponent(email)}`;
  return `mailto:${encodeURIComponent(email.slice(0, at))}@${encodeURIComponent(email.slice(at + 1))}`;
}

/**
 * `tel:` for a phone as written (RFC 3966): the number's digits (and a leading `+`), then its extension
 * apart: `+1 503 555 0177 ext. 1234` → `tel:+15035550177;ext=1234`. Null when there is no number to dial.
 */
export function telHref(phone: string): string | null {
  const { number, extension } = splitPhone(phone);
  const digits = number.replace(/\D/g, '');
  if (!digits) return null;
  const plus = number.trim().startsWith('+') ? '+' : '';
  return `tel:${plus}${digits}${extension ? `;ext=${extension}` : ''}`;
}
