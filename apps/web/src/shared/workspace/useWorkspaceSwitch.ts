import { type CurrentUser, RESOURCES } from '@switchyard/domain';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { workspaceStore } from '../../api/client';
import { useCurrentUser } from '../auth/useCurrentUser';
import { useChosenWorkspace } from './useChosenWorkspace';

export interface WorkspaceChoice {
  id: number;
  name: string;
}

export interface WorkspaceSwitch {
  workspaces: WorkspaceChoice[];
  /** The workspace requests act in: the chosen one, else the user's default (their first). */
  current: WorkspaceChoice | undefined;
  switchTo(id: number): void;
}

/** `GET /api/me` also names the workspace its request acted in: the user's default when none is chosen. */
type Me = CurrentUser & { workspace_id?: number | null };

/**
 * The record a create or edit screen shows belongs to the workspace being left: its resource's list is
 * where the switch lands instead. Every other screen stays, reloaded in the new workspace.
 */
function landingAfterSwitch(pathname: string): string | null {
  const resource = RESOURCES.find((entry) => entry.route && pathname.startsWith(`${entry.route}/`));
  return resource?.route ?? null;
}

/** The user's workspaces and the switch between them. */
export function useWorkspaceSwitch(): WorkspaceSwitch {
  const user = useCurrentUser() as Me | null;
  const chosen = useChosenWorkspace();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const workspaces = user?.workspaces ?? [];
  const current =
    workspaces.find((workspace) => workspace.id === chosen) ??
    workspaces.find((workspace) => workspace.id === user?.workspace_id) ??
    workspaces[0];

  const switchTo = useCallback(
    (id: number) => {
      if (id === current?.id) return;
      // The store's subscribers empty the query cache as the choice changes (useWorkspaceScope).
      workspaceStore.set(id);
      const landing = landingAfterSwitch(pathname);
      if (landing) void navigate(landing);
    },
    [current?.id, pathname, navigate],
  );

  return { workspaces, current, switchTo };
}
