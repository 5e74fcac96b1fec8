import { ACCOUNT_MESSAGES, messageKey } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/locales/en/common.json';

describe('account messages', () => {
  it('have a key in the common namespace for every text the account endpoints send', () => {
    for (const [key, text] of Object.entries(ACCOUNT_MESSAGES)) {
      expect(messageKey(text)).toBe(`account.messages.${key}`);
      expect((en.account.messages as Record<string, string>)[key]).toBe(text);
    }
  });
});
