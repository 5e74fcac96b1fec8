import { type ListResponse, LOOKUP_STALE_MS, type ResourceDefinition } from '@switchyard/domain';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from './client';
import { resourceKeys } from './queryKeys';

export type LookupValue = string | number;

export interface LookupOption {
  value: LookupValue;
  label: string;
}

/** §9: roles 10 minutes, users 1 minute, workspaces 10 seconds; other lookups count as fresh for 1 minute. */
const DEFAULT_LOOKUP_STALE_MS = 60_000;

export function lookupStaleTime(definition: ResourceDefinition): number {
  return (LOOKUP_STALE_MS as Record<string, number>)[definition.name] ?? DEFAULT_LOOKUP_STALE_MS;
}

const NO_OPTIONS: LookupOption[] = [];

/**
 * Every record of a resource as `{ value, label }` pairs for select controls (§3.1), loaded with
 * `limit=0`. §8: a failed load only warns on the console ("Unable to obtain roles") and yields [].
 */
export function useLookup(definition: ResourceDefinition): LookupOption[] {
  const { data } = useQuery({
    queryKey: resourceKeys.lookup(definition),
    queryFn: async ({ signal }) => {
      try {
        return await api<ListResponse<Record<string, unknown>>>(definition.apiPath, { query: { limit: 0 }, signal });
      } catch (error) {
        if (!signal.aborted) console.warn(`Unable to obtain ${definition.name}`);
        throw error;
      }
    },
    staleTime: lookupStaleTime(definition),
    retry: false,
  });
  return useMemo(() => {
    if (!data) return NO_OPTIONS;
    const { value, label } = definition.lookup;
    return data.list.map((record) => ({
      value: record[value] as LookupValue,
      label: String(record[label] ?? record[value]),
    }));
  }, [data, definition.lookup]);
}
