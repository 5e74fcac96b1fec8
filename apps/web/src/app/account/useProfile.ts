import type { Profile } from '@switchyard/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

export const PROFILE_KEY = ['account', 'profile'] as const;

export function useProfile() {
  return useQuery({ queryKey: PROFILE_KEY, queryFn: ({ signal }) => api<Profile>('profile', { signal }) });
}
