import type { ResourceDefinition } from '@switchyard/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { resourceKeys } from './queryKeys';

export interface SaveRecordInput {
  /** Absent: create (`POST`); present: update (`PUT …/:id`). */
  id?: string | number;
  body: unknown;
}

/** Creates or updates a record, then refreshes the resource's lists, lookups and that record. */
export function useSaveRecord<TRecord = Record<string, unknown>>(definition: ResourceDefinition) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: SaveRecordInput) =>
      id === undefined
        ? api<TRecord>(definition.apiPath, { method: 'POST', body })
        : api<TRecord>(`${definition.apiPath}/${encodeURIComponent(String(id))}`, { method: 'PUT', body }),
    onSuccess: async (answer) => {
      // The save answer's `notices` are about this save, not part of the record kept for the edit screen.
      const { notices: _notices, ...record } = (answer ?? {}) as Record<string, unknown>;
      const id = record[definition.idField];
      if (id !== undefined) queryClient.setQueryData(resourceKeys.record(definition, id as string | number), record);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: resourceKeys.all(definition) }),
        queryClient.invalidateQueries({ queryKey: resourceKeys.lookup(definition) }),
      ]);
    },
  });
}
