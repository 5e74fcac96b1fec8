import { type Domain, getResource, type TCertificateUpload } from '@switchyard/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { resourceKeys } from '../../api/queryKeys';

const domains = getResource('domains');

/** One of a domain's actions (renew, look DNS up again, upload); the domain read back from its answer. */
function useDomainAction<TInput>(request: (id: number, input: TInput) => Promise<Domain>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: TInput }) => request(id, input),
    onSuccess: async (domain) => {
      queryClient.setQueryData(resourceKeys.record(domains, String(domain.id)), domain);
      await queryClient.invalidateQueries({ queryKey: resourceKeys.all(domains) });
    },
  });
}

export function useRenewCertificate() {
  return useDomainAction<void>((id) => api<Domain>(`domains/${id}/certificate/renew`, { method: 'POST' }));
}

export function useCheckDns() {
  return useDomainAction<void>((id) => api<Domain>(`domains/${id}/dns`, { method: 'POST' }));
}

export function useUploadCertificate() {
  return useDomainAction<TCertificateUpload>((id, input) =>
    api<Domain>(`domains/${id}/certificate`, { method: 'PUT', body: input }),
  );
}
