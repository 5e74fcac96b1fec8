import { useSyncExternalStore } from 'react';
import { workspaceStore } from '../../api/client';

/** The workspace chosen in this browser, or null for the user's default one. */
export function useChosenWorkspace(): number | null {
  return useSyncExternalStore(workspaceStore.subscribe, workspaceStore.get);
}
