// D47: GET/POST /v1/customers/{id}/contacts/, PATCH/DELETE /v1/customers/{id}/contacts/{contact_id}/.
import type { ContactInput, CustomerContact } from '../../../contract/customer-parts';
import { addContact, listContacts, removeContact, updateContact } from './contacts-repo';
import { partRoutes } from './parts-routes';
import { contactBody } from './parts-schema';

export const contactRoutes = partRoutes<CustomerContact, ContactInput>({
  plural: 'contacts',
  noun: 'contact',
  body: contactBody,
  patch: contactBody,
  actions: { added: 'contact.added', updated: 'contact.updated', removed: 'contact.removed' },
  list: listContacts,
  add: addContact,
  update: updateContact,
  remove: (tx, orgId, customerId, id) => removeContact(tx, orgId, customerId, id),
  name: (c) => c.name,
});
