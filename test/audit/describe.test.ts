// D24 D30 D32: one describer for the audit log. Every action contract/audit.ts lists has its words on
// every screen and its short name in the activity log's filter; links only where the reader may go.
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, type AuditAction, type AuditEntryView } from '../../contract/audit';
import { describe as words, describeText, unknownWords, type AuditView, type LinkRights } from '../../src/audit/describe';
import { ACTIONS, TARGET_TYPES, valueText } from '../../src/audit/words';

const VIEWS: AuditView[] = ['log', 'recent', 'timeline'];
const OLIVIA = { id: 1, name: 'Olivia' };
const entry = (action: AuditAction, target: AuditEntryView['target'], changes: Record<string, unknown> = {}): AuditEntryView => ({
  id: 1,
  at: '2024-06-01T12:00:00.000Z',
  actor: OLIVIA,
  action,
  target,
  changes,
});
const JANE = { type: 'customer', id: 42, label: 'Jane Doe' };
const text = (parts: ReturnType<typeof words>) => parts.map((p) => (typeof p === 'string' ? p : p.text)).join('');
const links = (e: AuditEntryView, view: AuditView, rights: LinkRights) => words(e, view, rights).filter((p) => typeof p !== 'string');

describe('D30 every audit action has words', () => {
  it.each(AUDIT_ACTIONS.flatMap((a) => VIEWS.map((v) => [a, v] as const)))('D30 %s has its own words (%s)', (action, view) => {
    const e = entry(action, { type: 'thing', id: 7, label: 'Widget' });
    expect(describeText(e, view)).not.toBe(text(unknownWords(e)));
  });

  it('D30 the activity log filters by every action and every target type, each with a name', () => {
    expect(ACTIONS.map((a) => a.action)).toEqual([...AUDIT_ACTIONS]);
    expect(TARGET_TYPES.map((t) => t.type)).toEqual([...AUDIT_TARGET_TYPES]);
    expect([...ACTIONS, ...TARGET_TYPES].filter((x) => !x.label)).toEqual([]);
  });
});

describe('D9 D25 links in the audit words', () => {
  const ALL: LinkRights = { customers: true, team: true, permissions: true };

  it('D9 a customer is a link only for who may view customers, on every screen that names it', () => {
    for (const view of ['log', 'recent'] as const) {
      expect(links(entry('customer.created', JANE), view, ALL)).toEqual([{ text: 'Jane Doe', to: '/customers/42' }]);
      expect(links(entry('customer.created', JANE), view, { ...ALL, customers: false })).toEqual([]);
    }
  });

  it('D9 the permissions are a link only for who may view them', () => {
    const reset = entry('permissions.reset', { type: 'permissions', id: null, label: 'Permissions' });
    expect(links(reset, 'recent', ALL)).toEqual([{ text: 'the permissions', to: '/permissions' }]);
    expect(links(reset, 'recent', { ...ALL, permissions: false })).toEqual([]);
  });

  it('D25 a deleted customer is not a link (its page is a 404)', () => {
    for (const view of VIEWS) expect(links(entry('customer.deleted', JANE), view, ALL)).toEqual([]);
  });
});

describe('D24 D30 values in words', () => {
  it('a status as the app shows it, lists comma-separated, nothing as nothing, white space as one space', () => {
    expect([valueText('lead', 'status'), valueText('lead', 'city'), valueText(['vip', 'north']), valueText(null), valueText(' a \n b ')]).toEqual([
      'Lead',
      'lead',
      'vip, north',
      '',
      'a b',
    ]);
  });

  it('D24 the timeline says each change before → after in full, the log cuts a long one', () => {
    const long = 'x'.repeat(150);
    const e = entry('customer.updated', JANE, { address_line: { from: long, to: 'Main St 1' } });
    expect(describeText(e, 'timeline')).toBe(`Olivia changed address from ${long} to Main St 1`);
    expect(describeText(e, 'log')).toBe(`Olivia changed Jane Doe’s address from ${'x'.repeat(79)}… to Main St 1`);
    expect(describeText(e, 'recent')).toBe('Olivia changed address of Jane Doe');
  });
});

describe('D46 D48 locations, contacts and flags in words', () => {
  const HOME = { location_id: 3, location: 'Home' };
  it('D46 making a location primary is its own sentence, on every screen', () => {
    const made = entry('location.updated', JANE, { ...HOME, primary: { from: false, to: true } });
    expect(describeText(made, 'log')).toBe('Olivia made the location “Home” the primary location of Jane Doe');
    expect(describeText(made, 'timeline')).toBe('Olivia made the location “Home” the primary location');
  });

  it('D48 a flag reads yes or no, not true or false', () => {
    expect(valueText(true)).toBe('yes');
    expect(describeText(entry('customer.updated', JANE, { do_not_service: { from: false, to: true } }), 'timeline')).toBe('Olivia changed do not service from no to yes');
  });
});
describe('D49 merges in words', () => {
  const ANN = { id: 7, name: 'Ann Lee' };
  const onSurvivor = (action: AuditAction) => entry(action, JANE, { merge_id: 3, merged_customer: ANN, company: { from: null, to: 'Lee Rentals' }, notes: 2 });
  const onMerged = (action: AuditAction) => entry(action, { type: 'customer', id: ANN.id, label: ANN.name }, { merge_id: 3, survivor: { id: 42, name: 'Jane Doe' } });

  it('D49 each customer’s entry names the other, so both timelines tell the story', () => {
    expect(describeText(onSurvivor('customer.merged'), 'log')).toBe('Olivia merged Ann Lee into Jane Doe');
    expect(describeText(onSurvivor('customer.merged'), 'timeline')).toBe('Olivia merged Ann Lee into this customer');
    expect(describeText(onMerged('customer.merged'), 'timeline')).toBe('Olivia merged this customer into Jane Doe');
    expect(describeText(onSurvivor('customer.merge_undone'), 'timeline')).toBe('Olivia undid the merge of Ann Lee into this customer');
    expect(describeText(onMerged('customer.merge_undone'), 'recent')).toBe('Olivia undid the merge of Ann Lee into Jane Doe');
  });

  it("issue 34 item 9 D49 on the survivor's timeline the merged customer's history names it: its creation is not a second 'added this customer'", () => {
    const ann = { type: 'customer', id: ANN.id, label: ANN.name };
    const onJane = (e: AuditEntryView) => describeText(e, 'timeline', undefined, JANE.id);
    expect(onJane(entry('customer.created', JANE))).toBe('Olivia added this customer');
    expect(onJane(entry('customer.created', ann))).toBe('Olivia added Ann Lee, later merged into this customer');
    expect(onJane(entry('customer.updated', ann, { phone: { from: '555 0100', to: '555 0101' } }))).toBe(
      'Olivia changed phone from 555 0100 to 555 0101 (Ann Lee, before the merge)',
    );
    expect(onJane(entry('customer.updated', ann, { phone: { from: 'a', to: 'b' }, city: { from: 'c', to: 'd' } }))).toBe(
      'Olivia made 2 changes (Ann Lee, before the merge):',
    );
    expect(onJane(entry('location.added', ann, { location_id: 3, location: 'Home' }))).toBe('Olivia added the location “Home” to Ann Lee');
    expect(onJane(onSurvivor('customer.merged'))).toBe('Olivia merged Ann Lee into this customer');
    expect(links(entry('customer.created', ann), 'timeline', ALL_RIGHTS)).toEqual([]);
  });

  it('D9 D49 both customers are links only for who may view customers', () => {
    expect(links(onSurvivor('customer.merged'), 'log', ALL_RIGHTS)).toEqual([
      { text: 'Ann Lee', to: '/customers/7' },
      { text: 'Jane Doe', to: '/customers/42' },
    ]);
    expect(links(onMerged('customer.merged'), 'timeline', { ...ALL_RIGHTS, customers: false })).toEqual([]);
  });
});

const ALL_RIGHTS: LinkRights = { customers: true, team: true, permissions: true };
