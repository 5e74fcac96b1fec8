import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

const MAX_DECIMALS = 6;

/**
 * Amounts in lists: `$1.50` in the interface language's way, or the bare number without a valid currency.
 * Shown to their real precision (up to 6 decimals, as stored): a CPC of 0.002 is not "0".
 */
export function useFormatMoney(): (amount: unknown, currency?: unknown) => string {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useCallback(
    (amount, currency) => {
      if (typeof amount !== 'number') return '';
      try {
        return typeof currency === 'string' && currency
          ? new Intl.NumberFormat(language, {
              style: 'currency',
              currency,
              maximumFractionDigits: MAX_DECIMALS,
            }).format(amount)
          : new Intl.NumberFormat(language, { maximumFractionDigits: MAX_DECIMALS }).format(amount);
      } catch {
        return `${amount} ${String(currency ?? '')}`.trim();
      }
    },
    [language],
  );
}
