import { type BulkAction, bulkActionsOf, type ResourceDefinition, type TBulkAnswer } from '@switchyard/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { api } from '../../api/client';
import { resourceKeys } from '../../api/queryKeys';
import { useWorkspaceSwitch } from '../../shared/workspace/useWorkspaceSwitch';
import { useResourceCan } from '../access/useResourceCan';

// Rows chosen on a list, then one change for all of them through `POST /api/{resource}/bulk`,
// answered per id: how many were done, which were not and why.

export interface BulkRequest {
  action: BulkAction;
  ids: string[];
  workspace?: number;
  force?: boolean;
}

/** What one bulk change came to, with the names of the rows as they were when it was asked. */
export interface BulkOutcome {
  action: BulkAction;
  done: number;
  failed: { id: string; name: string; status: number; message: string }[];
  workspace?: number;
}

/** The bulk actions the signed-in user may take on this list, by the registry and their rights. */
export function useAllowedBulkActions(definition: ResourceDefinition): BulkAction[] {
  const canUpdate = useResourceCan(definition, 'update');
  const canArchive = useResourceCan(definition, 'archive');
  const canCreate = useResourceCan(definition, 'create');
  const { workspaces } = useWorkspaceSwitch();
  return useMemo(
    () =>
      bulkActionsOf(definition).filter((action) => {
        if (action === 'enable' || action === 'pause') return canUpdate;
        if (action === 'archive' || action === 'restore') return canArchive;
        // Moving creates the records in the other workspace; only for a user of several.
        return canUpdate && canCreate && workspaces.length > 1;
      }),
    [definition, canUpdate, canArchive, canCreate, workspaces.length],
  );
}

/** The chosen rows of the page shown (a row on another page, or gone, is not chosen). */
export function useRowSelection(pageIds: readonly string[]) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set());
  const selected = useMemo(() => pageIds.filter((id) => chosen.has(id)), [pageIds, chosen]);
  const toggle = useCallback((id: string) => {
    setChosen((previous) => {
      const next = new Set(previous);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const allChosen = pageIds.length > 0 && selected.length === pageIds.length;
  const toggleAll = useCallback(() => setChosen(allChosen ? new Set() : new Set(pageIds)), [allChosen, pageIds]);
  const clear = useCallback(() => setChosen(new Set()), []);
  return { selected, isSelected: (id: string) => chosen.has(id), toggle, toggleAll, allChosen, clear };
}

/** Sends a bulk change; the lists and lookups of the resource refresh after it. */
export function useBulkMutation(definition: ResourceDefinition) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: BulkRequest) =>
      api<TBulkAnswer>(`${definition.apiPath}/bulk`, { method: 'POST', body: request }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: resourceKeys.all(definition) }),
        queryClient.invalidateQueries({ queryKey: resourceKeys.lookup(definition) }),
      ]),
  });
}
