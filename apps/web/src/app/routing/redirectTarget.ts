import type { Location } from 'react-router';

/** Router state that carries the path the visitor wanted (§2.2). */
export interface LoginRedirectState {
  from: string;
}

export function wantedPath(location: Location): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

/** Where to go after login: the remembered path, or home. Never back to the auth pages. */
export function afterLoginPath(state: unknown): string {
  const from = (state as Partial<LoginRedirectState> | null)?.from;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//')) return '/';
  if (/^\/(login|logout|account\/login)(\/|\?|#|$)/.test(from)) return '/';
  return from;
}
