import { messageKey } from '@switchyard/domain';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Shows a text the server or a domain schema sent in the user's language: known texts have a key in
 * the `common` namespace (`validation.*`, `errors.*`); any other text is shown as sent.
 */
export function useServerMessage(): (text: string) => string {
  const { t } = useTranslation();
  return useCallback(
    (text: string) => {
      const key = messageKey(text);
      return key ? t(key, { ns: 'common', defaultValue: text }) : text;
    },
    [t],
  );
}
