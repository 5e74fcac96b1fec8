import { LOOKUP_STALE_MS } from '@switchyard/domain';
import { useReferenceList } from './useReferenceList';

/** §7.4 `GET /api/timezone/locations`, kept as the server sends it (§3.1), loaded only when empty (§9). */
export function useTimezoneLocations(): unknown[] {
  return useReferenceList<unknown>({
    path: 'timezone/locations',
    what: 'timezone locations',
    staleTime: LOOKUP_STALE_MS.once,
  });
}
