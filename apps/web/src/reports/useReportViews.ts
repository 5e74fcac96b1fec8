import type { ReportView, TReportViewForm } from '@switchyard/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';

/** The acting user's saved report views in the acting workspace (`/api/report-views`), by name. */
export const reportViewKeys = {
  all: ['report-views'] as const,
  one: (id: string) => ['report-views', 'one', id] as const,
};

export function useReportViews() {
  return useQuery({
    queryKey: reportViewKeys.all,
    queryFn: ({ signal }) => api<{ list: ReportView[] }>('report-views', { signal }).then((answer) => answer.list),
  });
}

/** One view by its id, as its link opens it (anyone of the workspace who reads reports may). */
export function useReportView(id: string | null) {
  return useQuery({
    queryKey: reportViewKeys.one(id ?? ''),
    queryFn: ({ signal }) => api<ReportView>(`report-views/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: id !== null,
    retry: false,
    gcTime: 0,
  });
}

/** Saves a new view (no id), or renames or changes one. */
export function useSaveReportView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, form }: { id?: number; form: TReportViewForm }) =>
      api<ReportView>(id === undefined ? 'report-views' : `report-views/${id}`, {
        method: id === undefined ? 'POST' : 'PUT',
        body: form,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportViewKeys.all }),
  });
}

export function useDeleteReportView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`report-views/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportViewKeys.all }),
  });
}

/** The link that opens a view: this screen's address with `?view=`. */
export function reportViewLink(id: number): string {
  const url = new URL(window.location.href);
  url.search = new URLSearchParams({ view: String(id) }).toString();
  url.hash = '';
  return url.toString();
}
