import type { HistoryEntry, HistoryEntryDetail } from '@switchyard/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type QueryValue } from '../api/client';

/** The kept changes of the acting workspace. */
export const historyKeys = {
  all: ['history'] as const,
  list: (query: Record<string, QueryValue>) => ['history', 'list', query] as const,
  entry: (id: number) => ['history', 'entry', id] as const,
};

export interface HistoryPage {
  list: HistoryEntry[];
  total: number;
}

/** `GET /api/history?resource=&id=&user=&from=&to=&page=&limit=`, newest first. */
export function useHistoryList(query: Record<string, QueryValue>) {
  return useQuery({
    queryKey: historyKeys.list(query),
    queryFn: ({ signal }) => api<HistoryPage>('history', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/history/{entry}`: the entry with both versions. */
export function useHistoryEntry(id: number) {
  return useQuery({
    queryKey: historyKeys.entry(id),
    queryFn: ({ signal }) => api<HistoryEntryDetail>(`history/${id}`, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** `POST /api/history/{entry}/restore`: the entry's "before" saved as a new change; answers the record. */
export function useRestoreHistoryEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<Record<string, unknown>>(`history/${id}/restore`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: historyKeys.all }),
  });
}
