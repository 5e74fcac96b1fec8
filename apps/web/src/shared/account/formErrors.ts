import { isCommonPassword, PASSWORD_MIN_LENGTH } from '@switchyard/domain';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';
import { errorText, translateServerMessage } from '../errors/errorText';

export { emailError } from './emailError';

/** The checks of the server's new-password rule, so a person hears of them before sending. */
export function newPasswordError(t: TFunction, value: string): string | null {
  if (!value) return t('validation.required');
  if (value.length < PASSWORD_MIN_LENGTH) return t('validation.passwordTooShort');
  if (isCommonPassword(value)) return t('account.messages.passwordTooCommon');
  return null;
}

export function confirmationError(t: TFunction, value: string, password: string): string | null {
  return value === password ? null : t('account.passwordMismatch');
}

/**
 * Puts the server's field errors under their fields (§5.1) and returns the text for the alert.
 */
export function showServerErrors(
  t: TFunction,
  error: unknown,
  setErrors: (errors: Record<string, string>) => void,
): string {
  if (error instanceof ApiError && error.body.errors) {
    setErrors(
      Object.fromEntries(
        Object.entries(error.fieldErrors())
          .filter(([field]) => field !== 'token')
          .map(([field, text]) => [field, translateServerMessage(t, text)]),
      ),
    );
  }
  return errorText(t, error);
}
