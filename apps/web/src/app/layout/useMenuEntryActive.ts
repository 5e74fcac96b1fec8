import { useLocation } from 'react-router';

/** An entry is active on its list and on the screens below it; the dashboard only on itself. */
export function useMenuEntryActive(route: string): boolean {
  const { pathname } = useLocation();
  if (route === '/admin') return pathname === route || pathname === `${route}/`;
  return pathname === route || pathname.startsWith(`${route}/`);
}
