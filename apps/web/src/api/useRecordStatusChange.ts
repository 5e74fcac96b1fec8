import type { ResourceDefinition } from '@switchyard/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { resourceKeys } from './queryKeys';

/** `PUT /api/<apiPath>/:id/archive|restore`, then the current page data is refreshed (§4). */
export function useRecordStatusChange<TRecord = Record<string, unknown>>(
  definition: ResourceDefinition,
  change: 'archive' | 'restore',
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | number) =>
      api<TRecord>(`${definition.apiPath}/${encodeURIComponent(String(id))}/${change}`, { method: 'PUT' }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: resourceKeys.all(definition) }),
        queryClient.invalidateQueries({ queryKey: resourceKeys.lookup(definition) }),
      ]),
  });
}
