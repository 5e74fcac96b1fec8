import { getResource, type ListResponse, type ResourceDefinition } from '@switchyard/domain';
import { type UseQueryResult, useQueries } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../api/client';
import { resourceKeys } from '../api/queryKeys';
import { lookupOptionOf, lookupStaleTime } from '../api/useLookup';

/** The name of a referenced record by the field that holds its id (`offer_external_id`), if known. */
export type ReferenceName = (field: string, id: string) => string | undefined;

type Lookup = ListResponse<Record<string, unknown>>;

const lastSegment = (field: string) => field.split('.').at(-1) ?? field;

/**
 * A diff names the offers, landers, flows and events a record refers to, not their ids. The
 * record's references (its definition's) are looked up; one the reader may not list stays an id.
 */
export function useReferenceNames(definition: ResourceDefinition | undefined): ReferenceName {
  const references = definition?.references ?? [];
  const combine = useCallback(
    (results: UseQueryResult<Lookup>[]) => {
      const byField = new Map<string, Map<string, string>>();
      (definition?.references ?? []).forEach((reference, index) => {
        const target = getResource(reference.resource);
        const known = byField.get(lastSegment(reference.field)) ?? new Map<string, string>();
        for (const record of results[index]?.data?.list ?? []) {
          const option = lookupOptionOf(target, record);
          known.set(String(option.value), option.label);
        }
        byField.set(lastSegment(reference.field), known);
      });
      return byField;
    },
    [definition],
  );
  const names = useQueries({
    queries: references.map((reference) => {
      const target = getResource(reference.resource);
      return {
        queryKey: [...resourceKeys.lookup(target), 'names'],
        queryFn: ({ signal }: { signal: AbortSignal }) => api<Lookup>(target.apiPath, { query: { limit: 0 }, signal }),
        staleTime: lookupStaleTime(target),
        retry: false,
      };
    }),
    combine,
  });
  return useCallback((field: string, id: string) => names.get(lastSegment(field))?.get(id), [names]);
}
