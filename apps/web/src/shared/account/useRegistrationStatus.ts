import type { RegistrationStatus } from '@switchyard/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

export const REGISTRATION_STATUS_KEY = ['account', 'registration'] as const;

/** Whether the server takes registrations (off by default); unknown while loading or on failure. */
export function useRegistrationStatus() {
  return useQuery({
    queryKey: REGISTRATION_STATUS_KEY,
    queryFn: ({ signal }) => api<RegistrationStatus>('registration', { signal }),
    staleTime: 60_000,
    retry: false,
  });
}
