// D56: custom field definitions SQL, every query scoped by organization (STYLE).
import type { CustomField, CustomFieldKind } from '../../../contract/custom-fields';
import { FIELD_COLUMNS, toField, type FieldRow } from '../../custom-fields';
import type { Queryable } from '../../db';
import { HttpError } from '../../http';

export { listFields, lockFields } from '../../custom-fields';

export const fieldNotFound = () => new HttpError(404, 'not_found', 'No such custom field');

export async function getField(db: Queryable, orgId: number, id: number): Promise<CustomField> {
  const [row] = await db.query<FieldRow>(`select ${FIELD_COLUMNS} from custom_fields where org_id = $1 and id = $2 and deleted_at is null`, [orgId, id]);
  if (!row) throw fieldNotFound();
  return toField(row);
}

/** A definition before it is stored: the database gives its id, position and dates. */
export type NewField = Omit<CustomField, 'id' | 'position' | 'archived' | 'archived_at' | 'created_at'>;

export async function insertField(tx: Queryable, orgId: number, f: NewField, now: Date): Promise<CustomField> {
  const [row] = await tx.query<FieldRow>(
    `insert into custom_fields (org_id, record_kind, key, label, type, options, help, required, unique_values, position, created_at)
     values ($1, $2, $3, $4, $5, $6::text::jsonb, $7, $8, $9,
             (select coalesce(max(position), 0) + 1 from custom_fields where org_id = $1 and record_kind = $2), $10)
     returning ${FIELD_COLUMNS}`,
    [orgId, f.record_kind, f.key, f.label, f.type, JSON.stringify(f.options), f.help, f.required, f.unique, now],
  );
  return toField(row!);
}

export type FieldPatch = Partial<Pick<CustomField, 'label' | 'help' | 'required' | 'unique' | 'type' | 'options'>>;
const PATCH_COLUMNS: Record<keyof FieldPatch, string> = {
  label: 'label',
  help: 'help',
  required: 'required',
  unique: 'unique_values',
  type: 'type',
  options: 'options',
};

export async function updateField(tx: Queryable, orgId: number, id: number, patch: FieldPatch): Promise<CustomField> {
  const keys = Object.keys(patch) as (keyof FieldPatch)[];
  if (keys.length === 0) return getField(tx, orgId, id);
  const sets = keys.map((k, i) => `${PATCH_COLUMNS[k]} = $${i + 3}${k === 'options' ? '::text::jsonb' : ''}`);
  const values = keys.map((k) => (k === 'options' ? JSON.stringify(patch[k]) : patch[k]));
  const [row] = await tx.query<FieldRow>(`update custom_fields set ${sets.join(', ')} where org_id = $1 and id = $2 returning ${FIELD_COLUMNS}`, [
    orgId,
    id,
    ...(values as (string | boolean | null)[]),
  ]);
  return toField(row!);
}

export async function setArchived(tx: Queryable, orgId: number, id: number, at: Date | null): Promise<CustomField> {
  const [row] = await tx.query<FieldRow>(`update custom_fields set archived_at = $3 where org_id = $1 and id = $2 returning ${FIELD_COLUMNS}`, [orgId, id, at]);
  return toField(row!);
}

/** D56 D34: a deleted field stays as a tombstone (its values hidden, its key taken) until purgeDeletedFields removes its values. */
export async function markDeleted(tx: Queryable, orgId: number, id: number, at: Date): Promise<void> {
  await tx.query('update custom_fields set deleted_at = $3 where org_id = $1 and id = $2', [orgId, id, at]);
}

/** Every key of the kind, deleted fields' included (a key is free again once their values are gone). */
export async function keysInUse(tx: Queryable, orgId: number, kind: CustomFieldKind): Promise<Set<string>> {
  const rows = await tx.query<{ key: string }>('select key from custom_fields where org_id = $1 and record_kind = $2', [orgId, kind]);
  return new Set(rows.map((r) => r.key));
}

/** D56: positions 1… in the order of `ids` (each a field of the organization and kind). */
export async function reorderFields(tx: Queryable, orgId: number, kind: CustomFieldKind, ids: number[]): Promise<void> {
  await tx.query(
    `update custom_fields f set position = o.n
       from (select id, n from unnest($3::int[]) with ordinality as t(id, n)) o
      where f.org_id = $1 and f.record_kind = $2 and f.id = o.id`,
    [orgId, kind, ids as never],
  );
}
