import type { ResourceDefinition } from '@switchyard/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { resourceKeys } from './queryKeys';

/** A record's id, or its id and `force` (archive a record still in use). */
export type StatusChangeTarget = string | number | { id: string | number; force?: boolean };

/** `PUT /api/<apiPath>/:id/archive|restore`, then the current page data is refreshed (§4). */
export function useRecordStatusChange<TRecord = Record<string, unknown>>(
  definition: ResourceDefinition,
  change: 'archive' | 'restore',
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: StatusChangeTarget) => {
      const { id, force } = typeof target === 'object' ? target : { id: target, force: false };
      return api<TRecord>(
        `${definition.apiPath}/${encodeURIComponent(String(id))}/${change}${force ? '?force=true' : ''}`,
        { method: 'PUT' },
      );
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: resourceKeys.all(definition) }),
        queryClient.invalidateQueries({ queryKey: resourceKeys.lookup(definition) }),
      ]),
  });
}
