import { Navigate, Outlet, useLocation } from 'react-router';
import { useCurrentUser } from '../../shared/auth/useCurrentUser';
import { afterLoginPath } from './redirectTarget';

/** §2.2, §4: a logged-in user on the login page goes to the remembered path, or home. */
export function GuestOnly() {
  const user = useCurrentUser();
  const location = useLocation();
  if (user) return <Navigate to={afterLoginPath(location.state)} replace />;
  return <Outlet />;
}
