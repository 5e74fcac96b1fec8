import { describe, expect, it } from 'vitest';
import { apiTokenExpiryProblem, tokenPermissions, ZApiTokenForm } from './api-tokens.js';

describe('what an API token may do', () => {
  it.each([
    [['/tracker/offer/get'], ['/'], ['/tracker/offer/get']],
    [['/tracker'], ['/tracker/offer', '/tracker/reports/get'], ['/tracker/offer', '/tracker/reports/get']],
    [['/tracker/offer/get', '/general/user/get'], ['/tracker'], ['/tracker/offer/get']],
    [['/tracker/offer/get'], ['/api'], []],
    [
      ['/tracker/offer', '/tracker/offer/get'],
      ['/tracker/offer/get', '/tracker/offer/update'],
      ['/tracker/offer/get', '/tracker/offer/update'],
    ],
  ])('token %j of a user holding %j acts with %j', (token, user, expected) => {
    expect(tokenPermissions(token, user)).toEqual(expected);
  });

  it('takes an expiry in the future, at most a year and a day away', () => {
    const now = new Date('2026-11-24T10:00:00.000Z');
    expect(apiTokenExpiryProblem('2026-12-24T10:00:00.000Z', now)).toBeNull();
    expect(apiTokenExpiryProblem('2026-11-24T10:00:00.000Z', now)).toBe('Choose a time in the future.');
    expect(apiTokenExpiryProblem('2028-01-01T00:00:00.000Z', now)).toBe('A token lives at most 366 days.');
  });

  it('needs a name, a time and known permissions', () => {
    const parsed = ZApiTokenForm.safeParse({ name: ' ', expires_at: 'tomorrow', permissions: ['/nope'] });
    expect(parsed.success).toBe(false);
    const paths = parsed.error?.issues.map((issue) => issue.path.join('.')).sort();
    expect(paths).toEqual(['expires_at', 'name', 'permissions.0']);
    expect(ZApiTokenForm.safeParse({ name: 'n', expires_at: '2026-12-01T00:00:00Z', permissions: [] }).success).toBe(
      false,
    );
  });
});
