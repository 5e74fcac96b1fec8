import { getResource, type Workspace } from '@switchyard/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { resourceKeys } from './queryKeys';

const workspaces = getResource('workspaces');
const affiliateNetworks = getResource('affiliate-networks');

/**
 * `POST /api/workspaces/:id/postback-key`: a new key; postback URLs with the old one are
 * refused from then on. The workspace and the networks' postback URLs are read again.
 */
export function useRotatePostbackKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | number) =>
      api<Workspace>(`workspaces/${encodeURIComponent(String(id))}/postback-key`, { method: 'POST' }),
    onSuccess: async (workspace) => {
      queryClient.setQueryData(resourceKeys.record(workspaces, workspace.id), workspace);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: resourceKeys.all(workspaces) }),
        queryClient.invalidateQueries({ queryKey: resourceKeys.all(affiliateNetworks) }),
      ]);
    },
  });
}
