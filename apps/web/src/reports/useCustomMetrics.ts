import type { CustomMetric, TCustomMetricForm } from '@switchyard/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';

/** The acting workspace's custom metrics (`/api/report-metrics`), oldest first. */
export const customMetricKeys = { all: ['report-metrics'] as const };

export function useCustomMetrics() {
  return useQuery({
    queryKey: customMetricKeys.all,
    queryFn: ({ signal }) => api<{ list: CustomMetric[] }>('report-metrics', { signal }).then((answer) => answer.list),
  });
}

/** Adds (no id) or changes a custom metric; reports are read again, with the metric's column. */
export function useSaveCustomMetric() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, form }: { id?: number; form: TCustomMetricForm }) =>
      api<CustomMetric>(id === undefined ? 'report-metrics' : `report-metrics/${id}`, {
        method: id === undefined ? 'POST' : 'PUT',
        body: form,
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: customMetricKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['reports'] }),
      ]),
  });
}

export function useDeleteCustomMetric() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`report-metrics/${id}`, { method: 'DELETE' }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: customMetricKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['reports'] }),
      ]),
  });
}
