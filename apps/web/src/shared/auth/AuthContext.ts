import type { CurrentUser } from '@switchyard/domain';
import { createContext } from 'react';

export interface AuthContextValue {
  /** Null when logged out. */
  user: CurrentUser | null;
  /** §4 Login: token, then the current user. Rejects with the ApiError of the failed call. */
  login(email: string, password: string): Promise<CurrentUser>;
  /** Starts the session of a token the server handed out (accepting an invitation), then loads the user. */
  startSession(token: string): Promise<CurrentUser>;
  /** Loads the signed-in user again (after they changed their own profile). */
  reloadUser(): Promise<void>;
  /** §4 Logout: tells the server, then clears the session whatever it answered. */
  logout(): Promise<void>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);
