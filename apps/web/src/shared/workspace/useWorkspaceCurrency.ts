import type { CurrentUser } from '@switchyard/domain';
import { useContext } from 'react';
import { tokenStore } from '../../api/client';
import { AuthContext } from '../auth/AuthContext';
import { useChosenWorkspace } from './useChosenWorkspace';

/**
 * The acting workspace's currency, which reports and event amounts are kept in: the one chosen in this
 * browser, else the one `GET /api/me` acted in (the user's default). USD until a user is known; read
 * without requiring a session, as report pieces also render on their own.
 */
export function useWorkspaceCurrency(): string {
  const auth = useContext(AuthContext);
  const chosen = useChosenWorkspace();
  const user = tokenStore.get() ? (auth?.user as (CurrentUser & { workspace_id?: number | null }) | null) : null;
  const acting = chosen ?? user?.workspace_id ?? user?.workspaces[0]?.id;
  return user?.workspaces.find((workspace) => workspace.id === acting)?.currency ?? 'USD';
}
