// D24: a customer's notes and timeline. Routes hold no SQL (notes-repo.ts does); each change is one
// transaction with its audit entry.
import { permissionDenied } from '../../auth/access';
import type { Queryable } from '../../db';
import { defineRoute, reply } from '../../route';
import { intText, pageQuery } from '../../schema';
import { addNote, deleteNote, editNote, getNote, listNotes, timeline } from './notes-repo';
import { getCustomer } from './repo';
import { noteBody } from './schema';

const idParam = { id: intText() };
const noteParams = { id: intText(), note_id: intText() };

type Page<T> = { count: number; results: T[] };

/** GET `path`: a page of what `list` reads of the customer `:id`, a 404 when the caller's organization has no such customer. */
const customerPages = <T>(path: string, list: (tx: Queryable, orgId: number, customerId: number, page: number, pageSize: number) => Promise<Page<T>>) =>
  defineRoute({
    method: 'GET',
    path,
    access: 'org',
    permission: 'customers:view',
    params: idParam,
    query: pageQuery,
    async handler({ tx, caller, params, query }) {
      await getCustomer(tx, caller.org.id, params.id);
      return list(tx, caller.org.id, params.id, query.page, query.page_size);
    },
  });

/** A note's audit entry: about the note, labelled with its customer's name. */
const noteEntry = (customer: { id: number; name: string }, note: { id: number }, body: unknown) => ({
  target: { type: 'note', id: note.id, label: customer.name },
  changes: { customer_id: customer.id, body },
});

const notes = customerPages('/v1/customers/:id/notes/', listNotes);

/** Adding a note is writing to the customer's record: customers:update. */
const addNoteRoute = defineRoute({
  method: 'POST',
  path: '/v1/customers/:id/notes/',
  access: 'org',
  permission: 'customers:update',
  params: idParam,
  body: noteBody,
  audit: 'note.added',
  async handler({ tx, ctx, caller, params, body, audit }) {
    const customer = await getCustomer(tx, caller.org.id, params.id, { lock: true });
    const note = await addNote(tx, caller.org.id, customer.id, caller.userId, body.body, new Date(ctx.now()));
    audit(noteEntry(customer, note, note.body));
    return reply(201, note);
  },
});

/** D24: the author, or anyone with customers:update, may edit or delete a note. */
async function editableNote(input: {
  tx: Parameters<typeof getNote>[0];
  caller: { userId: number; org: { id: number; role: string; permissions: ReadonlySet<string> } };
  params: { id: number; note_id: number };
}) {
  const { tx, caller, params } = input;
  const customer = await getCustomer(tx, caller.org.id, params.id, { lock: true });
  const note = await getNote(tx, caller.org.id, customer.id, params.note_id, { lock: true });
  if (note.author?.id !== caller.userId && !caller.org.permissions.has('customers:update')) throw permissionDenied(caller.org.role, 'customers:update');
  return { customer, note };
}

const editNoteRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/customers/:id/notes/:note_id/',
  access: 'org',
  permission: 'customers:view',
  params: noteParams,
  body: noteBody,
  audit: 'note.edited',
  async handler(input) {
    const { customer, note } = await editableNote(input);
    const after = await editNote(input.tx, input.caller.org.id, customer.id, note.id, input.body.body, new Date(input.ctx.now()));
    input.audit(noteEntry(customer, note, { from: note.body, to: after.body }));
    return after;
  },
});

const deleteNoteRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/customers/:id/notes/:note_id/',
  access: 'org',
  permission: 'customers:view',
  params: noteParams,
  audit: 'note.deleted',
  async handler(input) {
    const { customer, note } = await editableNote(input);
    await deleteNote(input.tx, input.caller.org.id, customer.id, note.id);
    input.audit(noteEntry(customer, note, note.body));
    return reply(204);
  },
});

const timelineRoute = customerPages('/v1/customers/:id/timeline/', timeline);

// ---- D27 CSV ----

export const noteRoutes = [notes, addNoteRoute, editNoteRoute, deleteNoteRoute, timelineRoute];
