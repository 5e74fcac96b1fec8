import { DEFAULT_PAGE_SIZE, type PostbackLogEntry } from '@switchyard/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiList } from '../api/client';
import { postbackLogKeys } from './postbackLogKeys';
import type { PostbackLogParams } from './usePostbackLogParams';

/** The browser's timezone: the From and To days are the operator's own. */
const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** One page of incoming postbacks, refetched every `refreshMs` (false: only on demand). */
export function useIncomingPostbacks(params: PostbackLogParams, refreshMs: number | false) {
  const query = {
    page: params.page,
    limit: DEFAULT_PAGE_SIZE,
    outcome: params.outcome,
    search: params.search || undefined,
    date_from: params.from || undefined,
    date_to: params.to || undefined,
    timezone: params.from || params.to ? TIME_ZONE : undefined,
  };
  return useQuery({
    queryKey: postbackLogKeys.incoming(query),
    queryFn: ({ signal }) => apiList<PostbackLogEntry>('postback-log', { query, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs,
  });
}
