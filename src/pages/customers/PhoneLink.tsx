// D39: a phone as written, linked to dial it (extension apart) when it holds a number.
import { telHref } from '../../lib/contact-links';

export function PhoneLink({ phone }: { phone: string }) {
  const href = telHref(phone);
  return href ? <a href={href}>{phone}</a> : phone;
}
