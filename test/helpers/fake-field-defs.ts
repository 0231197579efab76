// D56: GET /v1/custom-fields/ as the server answers it, for the forms and pages that read the definitions
// (the settings screen's own fake is fake-custom-fields.ts). Each field as the contract shapes it.
import type { CustomField, CustomFieldKind, CustomFieldType } from '../../contract/custom-fields';
import type { FakeApi } from './fake-api';
import { json } from './fake-http';

let nextId = 1;

/** A definition; options given by label ('Dog', 'Cat') get ids o1, o2… */
export function fieldDef(over: Partial<Omit<CustomField, 'options'>> & { key: string; type: CustomFieldType; options?: string[] }): CustomField {
  const { options = [], ...rest } = over;
  return {
    id: nextId++,
    record_kind: 'customer' satisfies CustomFieldKind,
    label: over.key,
    options: options.map((label, i) => ({ id: `o${i + 1}`, label })),
    help: null,
    required: false,
    unique: false,
    position: nextId,
    archived: false,
    archived_at: null,
    created_at: '2025-01-01T00:00:00Z',
    ...rest,
  };
}

/** Serves `fields` at GET /v1/custom-fields/ on `api`; `calls()` counts the GETs. */
export function serveFieldDefs(api: FakeApi, fields: CustomField[]) {
  api.routes.set('/v1/custom-fields/', () => json(200, { results: fields }));
  return { fields, calls: () => api.count('/api/v1/custom-fields/', 'GET') };
}

/** One of each type for customers, and a location field, as the journey defines them. */
export const demoFields = (): CustomField[] => [
  fieldDef({ key: 'gate_code', label: 'Gate code', type: 'text', unique: true, help: 'Four to six digits' }),
  fieldDef({ key: 'units', label: 'Units', type: 'number' }),
  fieldDef({ key: 'contract_end', label: 'Contract end', type: 'date' }),
  fieldDef({ key: 'plan', label: 'Plan', type: 'choice', options: ['Basic', 'Premium'], required: true }),
  fieldDef({ key: 'pets', label: 'Pets', type: 'choices', options: ['Dog', 'Cat', 'Bird'] }),
  fieldDef({ key: 'key_held', label: 'Key held', type: 'yes_no' }),
  fieldDef({ key: 'notes_long', label: 'Site notes', type: 'long_text' }),
  fieldDef({ key: 'old', label: 'Old field', type: 'text', archived: true, archived_at: '2025-01-02T00:00:00Z' }),
  fieldDef({ key: 'floor', label: 'Floor', type: 'number', record_kind: 'location' }),
];
