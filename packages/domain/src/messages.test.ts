import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, fieldErrors, messageKey, messageParts, VALIDATION_MESSAGES } from './messages.js';

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

  it('finds the key and the values of a text with values in it', () => {
    const text = 'The ip rule of the condition has a value that is not valid: "10.0.0.0/33"';
    expect(messageParts(text)).toEqual({
      key: 'validation.invalidConditionValue',
      values: { field: 'ip', value: '10.0.0.0/33' },
    });
    expect(messageKey(text)).toBe('validation.invalidConditionValue');
    expect(messageParts('The referrer rule of the condition cannot use "between"')).toEqual({
      key: 'validation.invalidConditionOperation',
      values: { field: 'referrer', value: 'between' },
    });
    expect(messageParts(VALIDATION_MESSAGES.required)).toEqual({ key: 'validation.required', values: {} });
    expect(messageParts('The ip rule of the condition is fine')).toBeUndefined();
  });
});
