import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** A payout with two decimals in the interface language's way (2.50, 2,50, ٢٫٥٠). */
export function useFormatPayout(): (payout: number) => string {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useCallback(
    (payout) =>
      new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(payout || 0),
    [language],
  );
}
