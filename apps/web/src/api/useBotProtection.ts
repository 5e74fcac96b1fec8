import type { BotProtectionSettings, TBotProtectionForm } from '@switchyard/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { botProtectionKeys } from './queryKeys';

/** `GET /api/bot-protection`: the datacenter networks whose visitors are bots. */
export function useBotProtection() {
  return useQuery({
    queryKey: botProtectionKeys.all,
    queryFn: ({ signal }) => api<BotProtectionSettings>('bot-protection', { signal }),
    retry: false,
  });
}

/**
 * `PUT /api/bot-protection` with a list, or `DELETE` (null) to put the shipped list back; either answers
 * the settings as saved, kept as the cache.
 */
export function useSaveBotProtection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: TBotProtectionForm | null) =>
      form === null
        ? api<BotProtectionSettings>('bot-protection', { method: 'DELETE' })
        : api<BotProtectionSettings>('bot-protection', { method: 'PUT', body: form }),
    onSuccess: (saved) => queryClient.setQueryData(botProtectionKeys.all, saved),
  });
}
