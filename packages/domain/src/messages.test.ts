import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, fieldErrors, messageKey, VALIDATION_MESSAGES } from './messages.js';

describe('messages', () => {
  it('groups issues by field path, first message first, without repeats', () => {
    expect(
      fieldErrors([
        { path: ['name'], message: 'a' },
        { path: ['name'], message: 'b' },
        { path: ['name'], message: 'a' },
        { path: ['roles', 0], message: 'c' },
        { path: [], message: 'd' },
      ]),
    ).toEqual({ name: ['a', 'b'], 'roles.0': ['c'], _: ['d'] });
  });

  it('finds the i18n key of every text the server sends', () => {
    expect(messageKey(VALIDATION_MESSAGES.required)).toBe('validation.required');
    expect(messageKey(ERROR_MESSAGES.invalidCredentials)).toBe('errors.invalidCredentials');
    expect(messageKey('something else')).toBeUndefined();
  });
});
