// D39: mailto: and tel: links built by encoding, in one module the customers list and page share.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mailtoHref, telHref } from '../../src/lib/contact-links';

describe('D39 contact links', () => {
  it('D39 tel: dials the number (and a leading +) with its extension apart, as RFC 3966 writes it', () => {
    expect(telHref('+1 503 555 0177 ext. 1234')).toBe('tel:+15035550177;ext=1234');
    expect(telHref('(503) 555-0177 x12')).toBe('tel:5035550177;ext=12');
    expect(telHref('503.555.0177 #9')).toBe('tel:5035550177;ext=9');
    expect(telHref('503-555-0177 Extension 7')).toBe('tel:5035550177;ext=7');
    expect(telHref('+1 (503) 555-0177')).toBe('tel:+15035550177');
    expect(telHref('503 555 0177 ext.')).toBe('tel:5035550177');
    // Nothing else a person typed reaches the link: no letters, no second +, no parameters.
    expect(telHref('503+555;isub=evil 0177')).toBe('tel:5035550177');
    expect(telHref('no digits')).toBeNull();
  });

  it('D39 mailto: percent-encodes the address, so nothing in it can add headers such as bcc', () => {
    expect(mailtoHref('billing@client.test')).toBe('mailto:billing@client.test');
    expect(mailtoHref('billing@client.test?bcc=spy%40evil.test')).toBe('mailto:billing@client.test%3Fbcc%3Dspy%2540evil.test');
    expect(mailtoHref('a&b#c@client.test')).toBe('mailto:a%26b%23c@client.test');
    expect(mailtoHref('josé@exämple.test')).toBe('mailto:jos%C3%A9@ex%C3%A4mple.test');
    expect(mailtoHref('no-at-sign?x=1')).toBe('mailto:no-at-sign%3Fx%3D1');
  });

  it('D39 the customers list and the customer page build their links with this module only', () => {
    for (const file of ['src/pages/customers/CustomerTable.tsx', 'src/pages/customers/detail/CustomerDetails.tsx', 'src/pages/customers/PhoneLink.tsx']) {
      const source = readFileSync(file, 'utf8');
      expect(source, file).not.toMatch(/[`'"]mailto:|[`'"]tel:/);
      expect(source, file).toMatch(/lib\/contact-links/);
    }
  });
});
