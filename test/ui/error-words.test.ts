// D19 SPEC §8: one home for a failed call in words: the server's own when it explains, else what to do.
import { describe, expect, it } from 'vitest';
import { HttpError, NetworkError } from '../../src/http/errors';
import { errorWords, loadWords, MSG_SESSION_ENDED, MSG_UNREACHABLE } from '../../src/ui/error-words';
import { failedWords } from '../../src/ui/failed-words';

const http = (status: number, detail?: string) => new HttpError(status, detail ? { detail, code: 'x' } : null, '/x');
const offline = new NetworkError('/x', new TypeError('Failed to fetch'));

describe('errorWords', () => {
  it('D19 says the server’s own words when it gave some; unreachable and a 401 in plain words; else a fallback', () => {
    expect(errorWords(http(409, 'The last owner cannot be removed'))).toBe('The last owner cannot be removed');
    expect(errorWords(offline)).toBe(MSG_UNREACHABLE);
    expect(errorWords(http(401, 'token expired'))).toBe(MSG_SESSION_ENDED);
    expect(errorWords(http(500))).toBe('Something went wrong. Please try again.');
    expect(errorWords(new Error('boom'), { fallback: 'Please try again.' })).toBe('Please try again.');
    expect(errorWords(http(500, 'Internal server error'), { explained: false })).toBe('Something went wrong. Please try again.');
  });
});

describe('loadWords', () => {
  it('SPEC §8 "Could not load …" with what to do; a 403 says the person may not view it', () => {
    expect(loadWords(http(500, 'Something went wrong.'), 'customers')).toBe('Could not load customers. Please try again.');
    expect(loadWords(http(500, 'Database unavailable.'), 'the permissions', { explained: true })).toBe('Could not load the permissions. Database unavailable.');
    expect(loadWords(offline, 'the team')).toBe(`Could not load the team. ${MSG_UNREACHABLE}`);
    expect(loadWords(http(403), 'customers', { forbidden: 'the customers of this organization' })).toBe(
      'You do not have permission to view the customers of this organization.',
    );
    expect(loadWords(http(401), 'customers')).toBe(MSG_SESSION_ENDED);
  });
});

describe('failedWords', () => {
  it('D25 "Could not {doing}: …": the server’s words for a 400 or 409, a 404 as gone, a 403 as not allowed', () => {
    expect(failedWords(http(409, 'Jane Smith already has this email'), 'restore Jane Doe')).toBe('Could not restore Jane Doe: Jane Smith already has this email.');
    expect(failedWords(http(404), 'delete the note')).toBe('Could not delete the note: it no longer exists.');
    expect(failedWords(http(403), 'delete the note')).toBe('You do not have permission to delete the note.');
    expect(failedWords(offline, 'add the note')).toBe('Could not add the note: the server could not be reached. Check your connection and try again.');
    expect(failedWords(http(500, 'Internal server error'), 'add the note')).toBe('Could not add the note. Please try again.');
  });
});
