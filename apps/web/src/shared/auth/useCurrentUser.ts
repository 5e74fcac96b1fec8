import type { CurrentUser } from '@switchyard/domain';
import { tokenStore } from '../../api/client';
import { useAuth } from './useAuth';

/**
 * The signed-in user, or null when logged out. A user without a stored token (logged out in another tab,
 * storage cleared) counts as logged out, so the route guards never disagree and bounce between pages.
 */
export function useCurrentUser(): CurrentUser | null {
  const { user } = useAuth();
  return user && tokenStore.get() ? user : null;
}
