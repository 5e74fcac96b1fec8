import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A currency's name in the interface language ("يورو", "欧元"), from the browser's own list; the name the
 * server gave (English) when the browser has none for the code.
 */
export function useCurrencyName(): (code: string, fallback: string) => string {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const names = useMemo(() => {
    try {
      return new Intl.DisplayNames([language], { type: 'currency', fallback: 'none' });
    } catch {
      return null;
    }
  }, [language]);
  return useCallback((code, fallback) => names?.of(code) ?? fallback, [names]);
}
