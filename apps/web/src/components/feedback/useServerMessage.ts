import { messageParts } from '@switchyard/domain';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Shows a text the server or a domain schema sent in the user's language: known texts have a key in
 * the `common` namespace (`validation.*`, `errors.*`), with the values a text carries (a rule's field
 * and value) filled in again; any other text is shown as sent.
 */
export function useServerMessage(): (text: string) => string {
  const { t } = useTranslation();
  return useCallback(
    (text: string) => {
      const parts = messageParts(text);
      return parts ? t(parts.key, { ns: 'common', defaultValue: text, ...parts.values }) : text;
    },
    [t],
  );
}
