import { DEFAULT_PAGE_SIZE, type OutboundPostbackEntry } from '@switchyard/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiList } from '../api/client';
import { postbackLogKeys } from './postbackLogKeys';
import type { PostbackLogParams } from './usePostbackLogParams';

/** One page of the outbound queue, refetched every `refreshMs` (false: only on demand). */
export function useOutboundPostbacks(params: PostbackLogParams, refreshMs: number | false) {
  const query = {
    page: params.page,
    limit: DEFAULT_PAGE_SIZE,
    state: params.state,
    search: params.search || undefined,
  };
  return useQuery({
    queryKey: postbackLogKeys.outbound(query),
    queryFn: ({ signal }) => apiList<OutboundPostbackEntry>('outbound-postbacks', { query, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs,
  });
}
