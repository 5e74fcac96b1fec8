import { Navigate, Outlet, useLocation } from 'react-router';
import { tokenStore } from '../../api/client';
import { useCurrentUser } from '../../shared/auth/useCurrentUser';
import { type LoginRedirectState, wantedPath } from './redirectTarget';

/** §2.2: a visitor who is not logged in, or whose profile is not loaded, goes to /login. */
export function RequireAuth() {
  const user = useCurrentUser();
  const location = useLocation();
  if (!user || !tokenStore.get()) {
    const state: LoginRedirectState = { from: wantedPath(location) };
    return <Navigate to="/login" replace state={state} />;
  }
  return <Outlet />;
}
