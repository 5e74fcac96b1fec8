import type { ResourceDefinition } from '@switchyard/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { resourceKeys } from './queryKeys';

/** One record by its id field (`GET /api/<apiPath>/:id`); idle while there is no id (create screens). */
export function useResourceRecord<TRecord = Record<string, unknown>>(
  definition: ResourceDefinition,
  id: string | number | undefined,
) {
  return useQuery({
    queryKey: resourceKeys.record(definition, id),
    queryFn: ({ signal }) => api<TRecord>(`${definition.apiPath}/${encodeURIComponent(String(id))}`, { signal }),
    enabled: id !== undefined && id !== '',
    retry: false,
  });
}
