import { z } from 'zod';
import { ACCOUNT_MESSAGES } from './account-messages.js';
import { PASSWORD_MIN_LENGTH } from './constants.js';
import { VALIDATION_MESSAGES as M } from './messages.js';

export const PASSWORD_MAX_LENGTH = 200;

/**
 * The most common passwords of at least PASSWORD_MIN_LENGTH characters, from public breach corpora
 * (shorter ones already fail the length check). Short on purpose: it stops the first guesses of an
 * online attack, it is not a dictionary.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '00000000',
  '11111111',
  '12121212',
  '12341234',
  '123123123',
  '12344321',
  '12345678',
  '123456789',
  '1234567890',
  '123456789a',
  '1234qwer',
  '123qweasd',
  '1q2w3e4r',
  '1q2w3e4r5t',
  '1qaz2wsx',
  '22222222',
  '55555555',
  '66666666',
  '77777777',
  '87654321',
  '88888888',
  '987654321',
  '99999999',
  'a1234567',
  'a12345678',
  'aa123456',
  'abc12345',
  'abcd1234',
  'abcdefgh',
  'admin123',
  'administrator',
  'asdf1234',
  'asdfasdf',
  'asdfghjk',
  'asdfghjkl',
  'baseball',
  'basketball',
  'changeme',
  'charlie1',
  'computer',
  'dragon123',
  'football',
  'freedom1',
  'iloveyou',
  'iloveyou1',
  'jennifer',
  'letmein1',
  'letmein123',
  'liverpool',
  'master123',
  'michelle',
  'monkey123',
  'mustang1',
  'password',
  'password!',
  'password1',
  'password12',
  'password123',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  'princess',
  'q1w2e3r4',
  'q1w2e3r4t5',
  'qazwsxedc',
  'qwer1234',
  'qwerty12',
  'qwerty123',
  'qwertyui',
  'qwertyuiop',
  'starwars',
  'sunshine',
  'superman',
  'switchyard',
  'trustno1',
  'welcome1',
  'welcome123',
  'whatever',
  'zaq12wsx',
  'zxcvbnm1',
  'zxcvbnm123',
]);

/** True for a password on the common list, whatever its letter case or surrounding spaces. */
export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.trim().toLowerCase());
}

/** A password a person chooses for their own account: long enough and not one of the first guesses. */
export const ZNewPassword = z
  .string({ error: M.required })
  .min(PASSWORD_MIN_LENGTH, { error: M.passwordTooShort })
  .max(PASSWORD_MAX_LENGTH, { error: M.tooLong })
  .refine((password) => !isCommonPassword(password), { error: ACCOUNT_MESSAGES.passwordTooCommon });
