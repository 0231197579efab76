// D49 D56: the merge screen asks about each custom field whose values differ (by its label, values in
// words), fills an empty one from the merged customer by default, and sends `custom.<key>` choices.
import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import MergePage from '../../src/pages/customers/merge/MergePage';
import { createQueryCache } from '../../src/query/cache';
import { navigate } from '../../src/router/location';
import { FakeApi } from '../helpers/fake-api';
import { fieldDef, serveFieldDefs } from '../helpers/fake-field-defs';
import { FakeMerge } from '../helpers/fake-merge';
import { renderPage } from '../helpers/render';

const MERGER = ['dashboard:view', 'customers:view', 'customers:update', 'customers:merge'];

function show() {
  const api = new FakeApi();
  const merge = new FakeMerge(api);
  serveFieldDefs(api, [
    fieldDef({ key: 'heater', label: 'Water heater model', type: 'text' }),
    fieldDef({ key: 'plan', label: 'Maintenance plan', type: 'choice', options: ['Gold', 'Silver'] }),
    fieldDef({ key: 'gate', label: 'Gate code', type: 'text' }),
    fieldDef({ key: 'pets', label: 'Pets', type: 'choices', options: ['Dog'] }),
  ]);
  merge.rows.get(21)!.custom = { heater: 'Rheem 50', plan: 'o1' };
  merge.rows.get(22)!.custom = { heater: 'Bradford 40', plan: 'o1', gate: '#4471' };
  renderPage('/customers/merge?survivor=21&merged=22', <MergePage />, { as: MERGER, fake: api, cache: createQueryCache({ retries: 0 }) });
  return merge;
}
const group = (legend: string) => screen.getByRole('group', { name: legend });
const radio = (legend: string, value: RegExp) => within(group(legend)).getByRole('radio', { name: value }) as HTMLInputElement;

beforeEach(() => navigate('/', { replace: true }));

describe('D56 custom fields in a merge', () => {
  it('D56 D49 a custom field whose values differ is asked about by its label; an empty one is filled from the other; the choices are sent as custom.<key>', async () => {
    const merge = show();
    await screen.findByRole('group', { name: 'Water heater model' });
    expect(radio('Water heater model', /Rheem 50 from Ann Lee/).checked).toBe(true);
    expect(radio('Gate code', /#4471 from Anna Lee/).checked).toBe(true); // Ann Lee has none: nothing is lost by default
    expect(screen.queryByRole('group', { name: 'Maintenance plan' })).toBeNull(); // the same in both
    expect(screen.getByText(/Same in both: .*Maintenance plan\./)).toBeTruthy();
    expect(screen.getByText(/Same in both/).textContent).not.toContain('Pets'); // empty in both: not named
    fireEvent.click(radio('Water heater model', /Bradford 40/));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Merge' })));
    const body = merge.calls('/v1/customers/merge/', 'POST')[0]!.body as { fields: Record<string, string> };
    expect(body.fields).toMatchObject({ 'custom.heater': 'merged', 'custom.gate': 'merged' });
    expect(body.fields).not.toHaveProperty('custom.plan');
  });
});
