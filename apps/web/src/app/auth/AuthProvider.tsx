import { type CurrentUser, type Profile, TOKEN_STORAGE_KEY } from '@switchyard/domain';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { api, setUnauthorizedHandler, tokenStore } from '../../api/client';
import { changeLanguage } from '../../i18n';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { clearSession, readStoredUser, storeUser } from '../../shared/auth/session';

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<CurrentUser | null>(() => (tokenStore.get() ? readStoredUser() : null));

  const endSession = useCallback(() => {
    clearSession();
    setUser(null);
    queryClient.clear();
  }, [queryClient]);

  // §4, §8: a 401 from any call logs out; the route guard then sends the visitor to /login.
  useEffect(() => {
    setUnauthorizedHandler(endSession);
    return () => setUnauthorizedHandler(() => {});
  }, [endSession]);

  // Logging out (or in) in another tab shows here too.
  useEffect(() => {
    function onStorage(event: StorageEvent) {
      if (event.key !== null && event.key !== TOKEN_STORAGE_KEY) return;
      if (!tokenStore.get()) endSession();
      else setUser(readStoredUser());
    }
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [endSession]);

  // A stored user counts as logged in at once; its permissions are refreshed in the background.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, for the user found at start.
  useEffect(() => {
    if (!user) return;
    api<CurrentUser>('me')
      .then((fresh) => {
        storeUser(fresh);
        setUser(fresh);
      })
      .catch(() => {
        // A 401 is handled by the unauthorized handler; other failures keep the stored profile.
      });
  }, []);

  const startSession = useCallback(async (token: string) => {
    try {
      tokenStore.set(token);
      const me = await api<CurrentUser>('me');
      storeUser(me);
      setUser(me);
      // The language chosen in the profile follows the user to every browser they log in from.
      api<Profile>('profile')
        .then((profile) => (profile.language ? changeLanguage(profile.language) : undefined))
        .catch(() => {});
      return me;
    } catch (error) {
      clearSession();
      throw error;
    }
  }, []);

  const login = useCallback(
    async (email: string, password: string) => {
      try {
        const { token } = await api<{ token: string }>('login', { method: 'POST', body: { email, password } });
        return await startSession(token);
      } catch (error) {
        clearSession();
        throw error;
      }
    },
    [startSession],
  );

  const reloadUser = useCallback(async () => {
    const fresh = await api<CurrentUser>('me');
    storeUser(fresh);
    setUser(fresh);
  }, []);

  const logout = useCallback(async () => {
    try {
      if (tokenStore.get()) await api('logout', { method: 'POST' });
    } catch (error) {
      console.error('Unable to logout', error);
    } finally {
      endSession();
    }
  }, [endSession]);

  const value = useMemo<AuthContextValue>(
    () => ({ user, login, startSession, reloadUser, logout }),
    [user, login, startSession, reloadUser, logout],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}
