import { messageKey } from '@switchyard/domain';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';

/** A server text in the user's language when it is one we know (§8), else as sent. */
export function translateServerMessage(t: TFunction, message: string): string {
  const key = messageKey(message);
  return key ? t(key) : message;
}

/** What to tell a person about a failed call. */
export function errorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) return translateServerMessage(t, error.message);
  if (error instanceof TypeError) return t('errors.network');
  return t('errors.internal');
}
