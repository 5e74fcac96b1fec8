import { COUNTRIES } from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { LookupOption } from './useLookup';

/**
 * The built-in country list (§3.1) as options: value the two-letter code, label the country's name in
 * the interface language (the English name where the browser cannot name it). No request is made.
 */
export function useCountryOptions(): LookupOption[] {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
    } catch {
      names = null;
    }
    return COUNTRIES.map((country) => ({ value: country.code, label: names?.of(country.code) ?? country.name }));
  }, [language]);
}
