// D47: the customer's other contacts (a tenant, a property manager, billing): name, role, email and phone
// as mailto: and tel: links (D39, lib/contact-links.ts), and a note with its line breaks kept. Edited in
// place (PartSection.tsx): add, change, remove.
import { CONTACT_TEXT_LIMITS, MAX_CONTACTS, type CustomerContact } from '../../../../contract/customer-parts';
import type { CustomerPartsApi } from '../../../api/customer-parts';
import { mailtoHref } from '../../../lib/contact-links';
import { useMutation } from '../../../query/use-query';
import { toast } from '../../../ui/toast';
import { PhoneLink } from '../PhoneLink';
import { PartField, PartForm, usePartForm } from './PartForm';
import { PartSection } from './PartSection';
import { CONTACT_LABELS, changed, contactInput, toValues, validateContact, type ContactValues } from './values';

const FIELDS = Object.keys(CONTACT_LABELS) as (keyof ContactValues)[];

function ContactView({ contact: c }: { contact: CustomerContact }) {
  return (
    <>
      <h3 className="part-title">
        {c.name}
        {c.role && <span className="part-role">{c.role}</span>}
      </h3>
      {(c.email || c.phone) && (
        <p className="part-links">
          {c.email && <a href={mailtoHref(c.email)}>{c.email}</a>}
          {c.phone && <PhoneLink phone={c.phone} />}
        </p>
      )}
      {c.note && <p className="part-text">{c.note}</p>}
    </>
  );
}

function ContactForm({ customerId, contact, api, done }: { customerId: number; contact: CustomerContact | null; api: CustomerPartsApi; done: () => void }) {
  const add = useMutation(api.contacts.add);
  const update = useMutation(api.contacts.update);
  const { form, draft } = usePartForm<ContactValues>({
    draftKey: `contact:${customerId}:${contact?.id ?? 'new'}`,
    customerId,
    initial: toValues<ContactValues>(FIELDS, contact),
    labels: CONTACT_LABELS,
    noun: 'contact',
    validate: validateContact,
    async save(v) {
      const input = contactInput(v);
      if (contact) await update.mutate({ id: contact.id, changes: changed(input, contact) });
      else await add.mutate(input);
      toast.success(`${contact ? 'Saved' : 'Added'} ${input.name}`);
    },
    onSaved: done,
  });
  const field = (name: keyof ContactValues, extra: { multiline?: boolean; type?: string } = {}) => (
    <PartField form={form} name={name} label={CONTACT_LABELS[name]} max={CONTACT_TEXT_LIMITS[name]} {...extra} />
  );
  return (
    <PartForm
      label={contact ? `Edit ${contact.name}` : 'New contact'}
      form={form}
      offer={draft.offer}
      saveLabel={contact ? 'Save contact' : 'Add contact'}
      onCancel={() => (draft.discard(), done())}
    >
      <div className="part-grid">
        {field('name')}
        {field('role')}
        {field('email', { type: 'email' })}
        {field('phone', { type: 'tel' })}
      </div>
      {field('note', { multiline: true })}
    </PartForm>
  );
}

export function Contacts({ customerId, contacts, canEdit, api }: { customerId: number; contacts: CustomerContact[]; canEdit: boolean; api: CustomerPartsApi }) {
  return (
    <PartSection
      title="Contacts"
      noun="contact"
      max={MAX_CONTACTS}
      items={contacts}
      canEdit={canEdit}
      empty="No other contacts yet."
      name={(c) => c.name}
      remove={api.contacts.remove}
      view={(c) => <ContactView contact={c} />}
      form={(c, done) => <ContactForm customerId={customerId} contact={c} api={api} done={done} />}
    />
  );
}
