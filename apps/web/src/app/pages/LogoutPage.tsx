import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '../../shared/auth/useAuth';
import { RouteFallback } from '../routing/RouteFallback';

/** §4 Logout: tell the server, clear the session, go to the login page. */
export function LogoutPage() {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void logout().then(() => navigate('/login', { replace: true }));
  }, [logout, navigate]);

  return <RouteFallback />;
}
