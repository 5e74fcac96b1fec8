import { useMemo } from 'react';
import type { LookupOption } from './useLookup';
import { useTimezoneLocations } from './useTimezoneLocations';

/**
 * A location of the raw list as a select option. The list's shape is the server's: plain zone names
 * (`Europe/Paris`) or objects naming the zone in `value`, `timezone`, `location` or `name`.
 */
function timezoneOptionOf(location: unknown): LookupOption | null {
  if (typeof location === 'string') return { value: location, label: location };
  if (!location || typeof location !== 'object') return null;
  const record = location as Record<string, unknown>;
  const zone = record.value ?? record.timezone ?? record.location ?? record.name;
  if (typeof zone !== 'string' || zone === '') return null;
  const label = record.label ?? record.name ?? zone;
  return { value: zone, label: String(label) };
}

/** Timezone locations as `{ value, label }` options for the cap-timezone select. */
export function useTimezoneOptions(): LookupOption[] {
  const locations = useTimezoneLocations();
  return useMemo(
    () => locations.map(timezoneOptionOf).filter((option): option is LookupOption => option !== null),
    [locations],
  );
}
