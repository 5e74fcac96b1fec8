import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { currencyRateKeys } from './queryKeys';

/** One currency's rate: units of it one US dollar buys. */
export interface CurrencyRate {
  code: string;
  name: string;
  rate: number;
  /** Shipped with the dated snapshot, or set by an administrator (never overwritten by a snapshot). */
  source: 'snapshot' | 'admin';
  updated_at: string;
}

/** `GET /api/currency-rates` and the answer of `PUT`. */
export interface CurrencyRates {
  base: string;
  snapshot_date: string;
  list: CurrencyRate[];
}

/** The currency rates; idle without the permission to read them (general/workspace/get). */
export function useCurrencyRates({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: currencyRateKeys.all,
    queryFn: ({ signal }) => api<CurrencyRates>('currency-rates', { signal }),
    enabled,
    retry: false,
  });
}
