import { LOOKUP_STALE_MS } from '@switchyard/domain';
import { useMemo } from 'react';
import type { LookupOption } from './useLookup';
import { useReferenceList } from './useReferenceList';

interface DefaultEmailWeight {
  key: string;
  name: string;
  weight: number;
}

/** A default email weight as a lookup (§3.1): value `key`, label `name`, extra `weight`. */
export interface EmailWeightOption extends LookupOption {
  value: string;
  weight: number;
}

/** §7.4 `GET /api/default-email-weights`, loaded only when empty (§9: once per session). */
export function useDefaultEmailWeights(): EmailWeightOption[] {
  const weights = useReferenceList<DefaultEmailWeight>({
    path: 'default-email-weights',
    what: 'default email weights',
    staleTime: LOOKUP_STALE_MS.once,
  });
  return useMemo(
    () =>
      weights.map((entry) => ({ value: entry.key, label: entry.name ?? entry.key, weight: Number(entry.weight) || 0 })),
    [weights],
  );
}
