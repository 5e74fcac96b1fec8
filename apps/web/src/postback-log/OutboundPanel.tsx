import { Stack } from '@mantine/core';
import { LogPagination } from './LogPagination';
import { LogQueryState } from './LogQueryState';
import { OutboundFilters } from './OutboundFilters';
import { OutboundTable } from './OutboundTable';
import { usePostbackLogContext } from './PostbackLogContext';
import { useOutboundPostbacks } from './useOutboundPostbacks';

/** The Outbound tab: filters, the page of the queue, paging. */
export function OutboundPanel() {
  const { params, refreshMs } = usePostbackLogContext();
  const { data, isLoading, isFetching, error } = useOutboundPostbacks(params, refreshMs);
  const entries = data?.list ?? [];
  return (
    <Stack gap="md">
      <OutboundFilters />
      <LogQueryState isLoading={isLoading} error={error} empty={entries.length === 0}>
        {entries.length > 0 && (
          <>
            <OutboundTable entries={entries} busy={isFetching} />
            <LogPagination shown={entries.length} total={data?.total ?? 0} />
          </>
        )}
      </LogQueryState>
    </Stack>
  );
}
