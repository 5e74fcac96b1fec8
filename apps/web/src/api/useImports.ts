import type { ImportAnswer, ImportRequest } from '@switchyard/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from './client';

/** An import from another tracker (`POST /api/imports`), dry or real. */
export function useRunImport() {
  return useMutation({
    mutationFn: ({ request, dryRun }: { request: ImportRequest; dryRun: boolean }) =>
      api<ImportAnswer>(`imports${dryRun ? '?dry_run=true' : ''}`, { method: 'POST', body: request }),
  });
}
