import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from './account-messages.js';
import { PASSWORD_MIN_LENGTH } from './constants.js';
import { VALIDATION_MESSAGES } from './messages.js';
import { COMMON_PASSWORDS, isCommonPassword, PASSWORD_MAX_LENGTH, ZNewPassword } from './password-policy.js';

describe('new passwords', () => {
  it.each([
    ['password', ACCOUNT_MESSAGES.passwordTooCommon],
    ['PassWord1', ACCOUNT_MESSAGES.passwordTooCommon],
    [' qwerty123 ', ACCOUNT_MESSAGES.passwordTooCommon],
    ['1234567', VALIDATION_MESSAGES.passwordTooShort],
    ['', VALIDATION_MESSAGES.passwordTooShort],
    ['x'.repeat(PASSWORD_MAX_LENGTH + 1), VALIDATION_MESSAGES.tooLong],
  ])('refuses %j', (password, message) => {
    const result = ZNewPassword.safeParse(password);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toContain(message);
  });

  it.each(['correct horse battery', 'Tr0ub4dor&3', 'x'.repeat(PASSWORD_MIN_LENGTH)])('accepts %j', (password) => {
    expect(ZNewPassword.safeParse(password).success).toBe(true);
  });

  it('lists only lowercase entries long enough to pass the length check', () => {
    for (const password of COMMON_PASSWORDS) {
      expect(password).toBe(password.toLowerCase());
      expect(password.length).toBeGreaterThanOrEqual(PASSWORD_MIN_LENGTH);
      expect(isCommonPassword(password.toUpperCase())).toBe(true);
    }
  });
});
