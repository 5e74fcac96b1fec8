import { LOOKUP_STALE_MS, type ResourceDefinition } from '@switchyard/domain';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { apiList, type QueryValue } from './client';
import { resourceKeys } from './queryKeys';

export type LookupValue = string | number;

export interface LookupOption {
  value: LookupValue;
  label: string;
}

export type LookupRecord = Record<string, unknown>;

/** §9: roles 10 minutes, users 1 minute, workspaces 10 seconds; other lookups count as fresh for 1 minute. */
export const DEFAULT_LOOKUP_STALE_MS = 60_000;

export function lookupStaleTime(definition: ResourceDefinition): number {
  return (LOOKUP_STALE_MS as Record<string, number>)[definition.name] ?? DEFAULT_LOOKUP_STALE_MS;
}

/** §8 names the list in words: "Unable to obtain offers", "Unable to obtain tracker offers". */
export function lookupFailureMessage(what: string): string {
  return `Unable to obtain ${what}`;
}

const NO_RECORDS: LookupRecord[] = [];

/** §7.2: offer lookups ask for the backup chain too; every lookup asks for all items (limit 0, §9). */
function lookupQuery(definition: ResourceDefinition): Record<string, QueryValue> {
  const withBackupChain = definition.name === 'offers' || definition.name === 'tracker-offers';
  return withBackupChain ? { limit: 0, with_backup_chain: true } : { limit: 0 };
}

export interface LookupRecordsOptions {
  /** Segment kinds: load the `segments-with-chain` list, whose records carry `segments_chain` (§3.1, §7.2). */
  withChain?: boolean;
  /** False: not asked for (a user who may not read the resource), and read as none. */
  enabled?: boolean;
}

/**
 * Every record of a resource as the server lists it, cached per §9. A failed load only warns on the
 * console (§8: "Unable to obtain offers") and yields []. `useLookup` and the lookups with extras (§3.1)
 * share this query.
 */
export function useLookupRecords(definition: ResourceDefinition, options: LookupRecordsOptions = {}): LookupRecord[] {
  return useLookupQuery(definition, options).data?.list ?? NO_RECORDS;
}

/** The query behind `useLookupRecords`, for a screen that must tell "still loading" from "none". */
export function useLookupQuery(definition: ResourceDefinition, options: LookupRecordsOptions = {}) {
  const path = (options.withChain && definition.withChainApiPath) || definition.apiPath;
  return useQuery({
    queryKey:
      path === definition.apiPath ? resourceKeys.lookup(definition) : [...resourceKeys.lookup(definition), path],
    queryFn: async ({ signal }) => {
      try {
        return await apiList<LookupRecord>(path, { query: lookupQuery(definition), signal });
      } catch (error) {
        if (!signal.aborted) console.warn(lookupFailureMessage(definition.name.replaceAll('-', ' ')));
        throw error;
      }
    },
    staleTime: lookupStaleTime(definition),
    retry: false,
    enabled: options.enabled ?? true,
  });
}

/** The `{ value, label }` pair of one record by the resource's lookup fields (§3.1). */
export function lookupOptionOf(definition: ResourceDefinition, record: LookupRecord): LookupOption {
  const { value, label } = definition.lookup;
  return { value: record[value] as LookupValue, label: String(record[label] ?? record[value]) };
}

/**
 * Every record of a resource as `{ value, label }` pairs for select controls (§3.1), loaded with
 * `limit=0`. §8: a failed load only warns on the console ("Unable to obtain roles") and yields [].
 */
export function useLookup(definition: ResourceDefinition): LookupOption[] {
  const records = useLookupRecords(definition);
  return useMemo(() => records.map((record) => lookupOptionOf(definition, record)), [records, definition]);
}
