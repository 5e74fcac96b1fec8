import type { Backup } from '@switchyard/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiFile } from './client';
import { backupKeys } from './queryKeys';

/** `GET /api/backups`: the backups kept in the data directory, newest first. */
export function useBackups() {
  return useQuery({
    queryKey: backupKeys.all,
    queryFn: ({ signal }) => api<{ list: Backup[]; total: number }>('backups', { signal }),
    retry: false,
  });
}

/** `POST /api/backups`: a copy made now; `DELETE /api/backups/{name}`. Both refresh the list. */
export function useBackupActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: backupKeys.all });
  const make = useMutation({
    mutationFn: () => api<Backup>('backups', { method: 'POST' }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (name: string) => api<null>(`backups/${encodeURIComponent(name)}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  return { make, remove };
}

/** Downloads a backup: fetched with the session's token (never in a URL), then saved by the browser. */
export async function downloadBackup(name: string): Promise<void> {
  const blob = await apiFile(`backups/${encodeURIComponent(name)}`);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}
