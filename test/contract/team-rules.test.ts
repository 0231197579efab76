// D28: the team rules in contract/team.ts, which the server, the team page and the test fake all apply.
import { describe, expect, test } from 'vitest';
import { ROLES } from '../../contract/permissions';
import { assignableRoles, ownerCount, removalRefusal, roleChangeRefusal } from '../../contract/team';

describe('D28 team rules', () => {
  test('D28 nobody changes their own role, whatever their role', () => {
    for (const actor of ROLES) expect(roleChangeRefusal({ actor, self: true, from: actor, to: 'viewer', owners: 3 })).toBe('own_role');
  });

  test('D28 only an owner makes or unmakes an owner; others change the other roles', () => {
    expect(roleChangeRefusal({ actor: 'admin', self: false, from: 'member', to: 'owner', owners: 1 })).toBe('owner_required');
    expect(roleChangeRefusal({ actor: 'admin', self: false, from: 'owner', to: 'admin', owners: 2 })).toBe('owner_required');
    expect(roleChangeRefusal({ actor: 'admin', self: false, from: 'member', to: 'viewer', owners: 1 })).toBeNull();
    expect(roleChangeRefusal({ actor: 'owner', self: false, from: 'member', to: 'owner', owners: 1 })).toBeNull();
    expect(assignableRoles('owner')).toEqual([...ROLES]);
    expect(assignableRoles('admin')).toEqual(ROLES.filter((r) => r !== 'owner'));
  });

  test('D28 the last owner is neither demoted nor removed; with two owners, an owner may do either', () => {
    expect(roleChangeRefusal({ actor: 'owner', self: false, from: 'owner', to: 'admin', owners: 1 })).toBe('last_owner');
    expect(roleChangeRefusal({ actor: 'owner', self: false, from: 'owner', to: 'admin', owners: 2 })).toBeNull();
    expect(removalRefusal({ actor: 'owner', role: 'owner', owners: 1 })).toBe('last_owner');
    expect(removalRefusal({ actor: 'owner', role: 'owner', owners: 2 })).toBeNull();
    expect(removalRefusal({ actor: 'admin', role: 'owner', owners: 2 })).toBe('owner_required');
    expect(removalRefusal({ actor: 'admin', role: 'member', owners: 1 })).toBeNull();
    expect(ownerCount([{ role: 'owner' }, { role: 'admin' }, { role: 'owner' }])).toBe(2);
  });
});
