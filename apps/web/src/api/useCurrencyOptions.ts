import { useMemo } from 'react';
import { DEFAULT_LOOKUP_STALE_MS, type LookupOption } from './useLookup';
import { useReferenceList } from './useReferenceList';

interface Currency {
  Code: string;
  Name: string;
}

/** §3.1, §7.4: currencies from `GET /api/currency`, value `Code`, label `Name`. */
export function useCurrencyOptions(): LookupOption[] {
  const currencies = useReferenceList<Currency>({
    path: 'currency',
    what: 'currency',
    staleTime: DEFAULT_LOOKUP_STALE_MS,
  });
  return useMemo(
    () => currencies.map((currency) => ({ value: currency.Code, label: currency.Name ?? currency.Code })),
    [currencies],
  );
}
