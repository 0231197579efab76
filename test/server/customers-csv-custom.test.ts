// D56 D27: the customers CSV carries the organization's custom fields: after the built-in columns, one
// column per active customer field headed by its label, each value in words (a choice by its option's
// label, yes/no), archived fields left out.
import { beforeAll, expect, test } from 'vitest';
import type { CustomField } from '../../contract/custom-fields';
import { CUSTOMERS } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { parseRfc4180 } from './csv-common';
import { addField, fieldPath } from './custom-fields-common';
import { ownerOfNewOrg, warmedUp, type Actor } from './customers-common';

const HEADER =
  'name,company,email,phone,address_line,city,region,postal_code,country,status,tags,type,lead_source,do_not_service,do_not_service_reason,created_at,updated_at'.split(
    ',',
  );

forEachBackend('API customers CSV with custom fields', (backend) => {
  let b: Backend;
  let owner: Actor;
  let fields: CustomField[];
  beforeAll(async () => {
    b = await warmedUp(backend);
    owner = await ownerOfNewOrg(b, 'CsvCustom');
    fields = [
      await addField(owner, { key: 'heater', label: 'Water heater model' }),
      await addField(owner, { key: 'plan', label: 'Maintenance plan', type: 'choice', options: [{ label: 'Gold' }, { label: 'Silver' }] }),
      await addField(owner, { key: 'pets', label: 'Pets', type: 'choices', options: [{ label: 'Dog' }, { label: 'Cat' }] }),
      await addField(owner, { key: 'gated', label: 'Gated', type: 'yes_no' }),
      await addField(owner, { key: 'serviced', label: 'Last service date', type: 'date' }),
      await addField(owner, { key: 'old', label: 'Old code' }),
    ];
  });
  const download = async () => {
    const res = await fetch(new URL(`${CUSTOMERS}export.csv?sort=name`.replace(/^\//, ''), b.server.url), {
      headers: { Authorization: `Bearer ${owner.token}`, 'X-Organization-ID': String(owner.org) },
    });
    expect(res.status).toBe(200);
    return parseRfc4180((await res.text()).replace(/^\uFEFF/, ''));
  };

  test('D56 D27 the export has a column per active customer field, headed by its label, values in words; an archived field is left out', async () => {
    const [heater, plan, pets, gated, serviced, old] = fields as [CustomField, CustomField, CustomField, CustomField, CustomField, CustomField];
    const gold = plan.options[0]!.id;
    const [dog, cat] = pets.options.map((o) => o.id);
    const made = await owner.post(CUSTOMERS, {
      name: 'Ada Field',
      custom: { [heater.key]: '=Rheem 50', [plan.key]: gold, [pets.key]: [dog, cat], [gated.key]: true, [serviced.key]: '2026-03-01', [old.key]: 'x1' },
    });
    expect(made.status, made.text).toBe(201);
    expect((await owner.post(CUSTOMERS, { name: 'Bo Plain' })).status).toBe(201);
    expect((await owner.post(fieldPath(old.id, 'archive/'))).status).toBe(200);

    const [header, ...rows] = await download();
    expect(header).toEqual([...HEADER, 'Water heater model', 'Maintenance plan', 'Pets', 'Gated', 'Last service date']);
    const cells = (name: string) => rows.find((r) => r[0] === name)!.slice(HEADER.length);
    expect(cells('Ada Field')).toEqual(["'=Rheem 50", 'Gold', 'Dog; Cat', 'yes', '2026-03-01']); // a formula start guarded as every cell
    expect(cells('Bo Plain')).toEqual(['', '', '', '', '']);
  });
});
