// D56 D34: deleted custom fields' values removed in small steps, each its own statement, so everyone
// else's calls run between them (one statement over 200,000 records held PGlite for two minutes): the
// table's ids are walked in ranges of PURGE_SPAN, each range one short statement; then the tombstone goes
// and its key is free. Started after a delete commits, and by the server's maintenance.
import type { CustomField } from '../../../contract/custom-fields';
import type { Db } from '../../db';
import { num } from '../../db';
import { lastRecordId, PURGE_SPAN, removeValuesFrom } from './values-repo';

/** One purge at a time per database; a delete during one asks for another round. */
const running = new WeakMap<Db, { done: Promise<number>; again: boolean }>();

/** Removes every deleted field's values and then the field; answers how many fields went. */
export function purgeDeletedFields(db: Db): Promise<number> {
  const current = running.get(db);
  if (current) {
    current.again = true;
    return current.done;
  }
  const state = { done: Promise.resolve(0), again: true };
  state.done = (async () => {
    let gone = 0;
    try {
      while (state.again) {
        state.again = false;
        const fields = await db.query<{ id: unknown; org_id: unknown; record_kind: CustomField['record_kind']; key: string }>(
          'select id, org_id, record_kind, key from custom_fields where deleted_at is not null order by deleted_at, id',
        );
        for (const f of fields) {
          const orgId = num(f.org_id);
          const last = await lastRecordId(db, f);
          for (let from = 0; from <= last; from += PURGE_SPAN) await removeValuesFrom(db, orgId, f, from);
          await db.query('delete from custom_fields where org_id = $1 and id = $2 and deleted_at is not null', [orgId, num(f.id)]);
          gone++;
        }
      }
      return gone;
    } finally {
      running.delete(db);
    }
  })();
  running.set(db, state);
  return state.done;
}
