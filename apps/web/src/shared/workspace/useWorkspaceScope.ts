import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { workspaceStore } from '../../api/client';
import { useAuth } from '../auth/useAuth';
import { useCurrentUser } from '../auth/useCurrentUser';
import { useChosenWorkspace } from './useChosenWorkspace';

/**
 * Keeps the dashboard inside one workspace. Whenever the choice changes (the switcher, another
 * tab, a refusal from the server) the query cache is emptied before anything renders again, so nothing
 * of the other workspace stays on screen; a choice that is not among the user's workspaces is dropped.
 * Returns the chosen workspace, for keying what must be built afresh in another workspace.
 */
export function useWorkspaceScope(): number | null {
  const queryClient = useQueryClient();
  const { reloadUser } = useAuth();
  const user = useCurrentUser();
  const chosen = useChosenWorkspace();

  // Subscribed in an effect rather than rendered: the listener runs as the choice changes, ahead of the
  // render that follows, so the page rebuilt in the new workspace never reads the old one's data.
  useEffect(
    () =>
      workspaceStore.subscribe(() => {
        void queryClient.cancelQueries();
        queryClient.clear();
        // The user as the new workspace sees them: the workspaces to switch to, the one acted in.
        reloadUser().catch(() => {});
      }),
    [queryClient, reloadUser],
  );

  useEffect(() => {
    if (chosen !== null && user && !user.workspaces.some((workspace) => workspace.id === chosen)) {
      workspaceStore.clear();
    }
  }, [chosen, user]);

  return chosen;
}
