import type { TFunction } from 'i18next';

// Its own module: the login page checks an email without carrying the password rules' word list.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email field's check before sending: filled in and shaped like an address (the server decides the rest). */
export function emailError(t: TFunction, value: string): string | null {
  if (!value.trim()) return t('validation.required');
  return EMAIL_PATTERN.test(value.trim()) ? null : t('validation.invalidEmail');
}
