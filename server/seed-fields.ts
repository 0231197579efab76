// D3 D56 demo custom fields, laid over the demo customers (seed.ts): Acme Plumbing keeps a water heater's
// model, the last service date and a maintenance plan on its customers and a gate code on locations;
// Beacon Electric keeps the panel's brand. Values on some customers, picked by position, never by chance.
import { DAY_MS } from '../contract/time';
import { writeAudit, type Actor } from './audit';
import type { Queryable } from './db';
import { num } from './db';

type Def = { kind: 'customer' | 'location'; key: string; label: string; type: 'text' | 'date' | 'choice'; help?: string; options?: string[] };

const FIELDS: Record<'acme' | 'beacon', Def[]> = {
  acme: [
    { kind: 'customer', key: 'water_heater_model', label: 'Water heater model', type: 'text', help: 'Brand and model from the unit’s label' },
    { kind: 'customer', key: 'last_service_date', label: 'Last service date', type: 'date' },
    { kind: 'customer', key: 'maintenance_plan', label: 'Maintenance plan', type: 'choice', options: ['None', 'Annual flush', 'Premium'] },
    { kind: 'location', key: 'gate_code', label: 'Gate code', type: 'text', help: 'As the customer gave it' },
  ],
  beacon: [{ kind: 'customer', key: 'panel_brand', label: 'Panel brand', type: 'choice', options: ['Square D', 'Siemens', 'Eaton', 'GE', 'Other'] }],
};
const HEATERS = ['Rheem Performance 50 gal', 'A. O. Smith Signature 40 gal', 'Bradford White RE350', 'Rinnai RU199iN (tankless)', 'State ProLine 50'];

/** D56: one organization's demo fields (audited as made by `who`) and their values on every third customer. */
export async function seedDemoFields(
  tx: Queryable,
  org: 'acme' | 'beacon',
  orgId: number,
  who: { id: number; name: string } | null,
  customerIds: number[],
  nowMs: number,
): Promise<void> {
  const actor: Actor = who ? { id: who.id, label: who.name } : { id: null, label: 'system' };
  const made = new Date(nowMs - 120 * DAY_MS);
  for (const [i, f] of FIELDS[org].entries()) {
    const options = (f.options ?? []).map((label, n) => ({ id: `o${n + 1}`, label }));
    const [row] = await tx.query<{ id: unknown }>(
      `insert into custom_fields (org_id, record_kind, key, label, type, options, help, required, unique_values, position, created_at)
       values ($1, $2, $3, $4, $5, $6::text::jsonb, $7, false, false, $8, $9) returning id`,
      [orgId, f.kind, f.key, f.label, f.type, JSON.stringify(options), f.help ?? null, i + 1, made],
    );
    const changes = { record_kind: f.kind, key: f.key, label: f.label, type: f.type, options, help: f.help ?? null, required: false, unique: false };
    await writeAudit(tx, orgId, actor, 'custom_field.created', { target: { type: 'custom_field', id: num(row?.id), label: f.label }, changes }, made);
  }
  for (const [i, id] of customerIds.entries()) {
    if (i % 3 !== 0) continue;
    const value =
      org === 'acme'
        ? {
            water_heater_model: HEATERS[(i / 3) % HEATERS.length],
            last_service_date: new Date(nowMs - (20 + i * 9) * DAY_MS).toISOString().slice(0, 10),
            ...(i % 2 === 0 ? { maintenance_plan: i % 4 === 0 ? 'o2' : 'o3' } : {}),
          }
        : { panel_brand: `o${((i / 3) % 5) + 1}` };
    await tx.query('update customers set custom = custom || $3::text::jsonb where org_id = $1 and id = $2', [orgId, id, JSON.stringify(value)]);
  }
  // D56: the gate code on the locations that have access notes (the landlord's rentals and the commercial site).
  if (org === 'acme')
    await tx.query(
      `update customer_locations set custom = jsonb_build_object('gate_code', '#' || (1000 + id % 9000)::text) where org_id = $1 and access_notes is not null`,
      [orgId],
    );
}
