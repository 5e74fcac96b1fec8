import type { LanderFile, LanderFileContent, LanderFileList, TLanderFileEdit } from '@switchyard/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

// A tracker lander's hosted files (apps/server/src/landers/routes.ts).

const filesKey = (id: string) => ['lander-files', id] as const;
const fileKey = (id: string, path: string) => ['lander-files', id, 'content', path] as const;

export function useLanderFiles(id: string) {
  return useQuery({
    queryKey: filesKey(id),
    queryFn: () => api<LanderFileList>(`tracker/landers/${id}/files`),
    enabled: id !== '',
  });
}

export function useLanderFile(id: string, path: string | null) {
  return useQuery({
    queryKey: fileKey(id, path ?? ''),
    queryFn: () => api<LanderFileContent>(`tracker/landers/${id}/files/content`, { query: { path } }),
    enabled: path !== null,
    // The editor keeps what was typed: the file is read once per opening.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

export function useUploadLanderZip(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (zip: File) =>
      api<LanderFileList>(`tracker/landers/${id}/files`, {
        method: 'POST',
        raw: { body: zip, type: 'application/zip' },
      }),
    onSuccess: (list) => {
      queryClient.setQueryData(filesKey(id), list);
    },
  });
}

export function useSaveLanderFile(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (edit: TLanderFileEdit) =>
      api<LanderFile>(`tracker/landers/${id}/files`, { method: 'PUT', body: edit }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: filesKey(id) });
    },
  });
}
