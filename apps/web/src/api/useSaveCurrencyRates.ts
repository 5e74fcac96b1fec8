import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { currencyRateKeys } from './queryKeys';
import type { CurrencyRates } from './useCurrencyRates';

export interface CurrencyRateChange {
  code: string;
  rate: number;
}

/** `PUT /api/currency-rates`: adds or changes rates; the answer is the whole list, kept as the cache. */
export function useSaveCurrencyRates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rates: CurrencyRateChange[]) =>
      api<CurrencyRates>('currency-rates', { method: 'PUT', body: { rates } }),
    onSuccess: (saved) => queryClient.setQueryData(currencyRateKeys.all, saved),
  });
}
