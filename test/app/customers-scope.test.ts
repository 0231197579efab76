// D59: the current-user answer's customers_scope, as the session keeps it for the screens.
import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../src/session/profile';
import { profile } from '../helpers/fake-api';

describe('D59 the profile’s customers scope', () => {
  it('D59 keeps customers_scope: assigned', () => {
    expect(parseProfile(profile({ role: 'member', customers_scope: 'assigned' })).customers_scope).toBe('assigned');
  });
  it('D59 reads all when the server says all, says nothing, or says something else', () => {
    expect(parseProfile(profile({ customers_scope: 'all' })).customers_scope).toBe('all');
    expect(parseProfile(profile()).customers_scope).toBe('all');
    expect(parseProfile(profile({ customers_scope: 'everything' })).customers_scope).toBe('all');
  });
});
