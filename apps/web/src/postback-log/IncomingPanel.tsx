import { Stack } from '@mantine/core';
import { IncomingFilters } from './IncomingFilters';
import { IncomingTable } from './IncomingTable';
import { LogPagination } from './LogPagination';
import { LogQueryState } from './LogQueryState';
import { usePostbackLogContext } from './PostbackLogContext';
import { useIncomingPostbacks } from './useIncomingPostbacks';

/** The Incoming tab: filters, the page of postbacks, paging. */
export function IncomingPanel() {
  const { params, refreshMs } = usePostbackLogContext();
  const { data, isLoading, isFetching, error } = useIncomingPostbacks(params, refreshMs);
  const entries = data?.list ?? [];
  return (
    <Stack gap="md">
      <IncomingFilters />
      <LogQueryState isLoading={isLoading} error={error} empty={entries.length === 0}>
        {entries.length > 0 && (
          <>
            <IncomingTable entries={entries} busy={isFetching} />
            <LogPagination shown={entries.length} total={data?.total ?? 0} />
          </>
        )}
      </LogQueryState>
    </Stack>
  );
}
