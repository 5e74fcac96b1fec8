import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** Amounts in lists: `$1.50` in the interface language's way, or the bare number without a valid currency. */
export function useFormatMoney(): (amount: unknown, currency?: unknown) => string {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useCallback(
    (amount, currency) => {
      if (typeof amount !== 'number') return '';
      try {
        return typeof currency === 'string' && currency
          ? new Intl.NumberFormat(language, { style: 'currency', currency }).format(amount)
          : new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(amount);
      } catch {
        return `${amount} ${String(currency ?? '')}`.trim();
      }
    },
    [language],
  );
}
