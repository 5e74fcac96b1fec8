import { CURRENT_USER_STORAGE_KEY, type CurrentUser } from '@switchyard/domain';
import { tokenStore } from '../../api/client';

/** The signed-in user kept across reloads (§4: on start a stored user means logged in). */
export function readStoredUser(): CurrentUser | null {
  try {
    const raw = localStorage.getItem(CURRENT_USER_STORAGE_KEY);
    if (!raw) return null;
    const user = JSON.parse(raw) as Partial<CurrentUser>;
    return typeof user.name === 'string' && Array.isArray(user.permissions) ? (user as CurrentUser) : null;
  } catch {
    return null;
  }
}

export function storeUser(user: CurrentUser): void {
  localStorage.setItem(CURRENT_USER_STORAGE_KEY, JSON.stringify(user));
}

/** Token and user go together (§4 Logout). */
export function clearSession(): void {
  tokenStore.clear();
}
