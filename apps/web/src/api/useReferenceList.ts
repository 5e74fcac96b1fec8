import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { referenceKeys } from './queryKeys';
import { lookupFailureMessage } from './useLookup';

export interface ReferenceListOptions {
  /** Below /api: `currency`, `default-email-weights`, `timezone/locations`. */
  path: string;
  /** Words of the §8 console warning: "Unable to obtain {what}". */
  what: string;
  /** How long a loaded list counts as fresh (§9); `Infinity` loads it once per session. */
  staleTime: number;
}

const NOTHING: never[] = [];

/**
 * One reference list of §7.4 as the server returns it (a plain array). A failed load warns on the
 * console only (§8) and yields []; a list that failed stays empty and is asked for again on next use.
 */
export function useReferenceList<T>({ path, what, staleTime }: ReferenceListOptions): T[] {
  const { data } = useQuery({
    queryKey: referenceKeys.list(path),
    queryFn: async ({ signal }) => {
      try {
        const list = await api<T[]>(path, { signal });
        return Array.isArray(list) ? list : [];
      } catch (error) {
        if (!signal.aborted) console.warn(lookupFailureMessage(what));
        throw error;
      }
    },
    staleTime,
    // Lists loaded once per session must not be dropped from the cache while unused.
    gcTime: staleTime === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : undefined,
    retry: false,
  });
  return data ?? NOTHING;
}
