import { CLONABLE, DEFAULT_PAGE_SIZE, type ResourceDefinition, SORT_FIELDS } from '@switchyard/domain';
import { useEffect, useMemo } from 'react';
import { useLocation } from 'react-router';
import { useResourceList } from '../../api/useResourceList';
import { useResourceCan } from '../access/useResourceCan';
import { rememberListSearch } from './listReturnPath';
import { listStatsTimezone, useListStatsColumns, useListStatsFigures } from './listStats';
import type { ListColumn } from './types';
import { useAllowedBulkActions, useRowSelection } from './useBulkActions';
import { useCloneConfirm } from './useCloneConfirm';
import { useListParams } from './useListParams';
import { useStatusConfirm } from './useStatusConfirm';

export type ListRecord = Record<string, unknown>;

const isShownOrder = (field: string, figures: readonly string[]) =>
  (SORT_FIELDS as readonly string[]).includes(field) || figures.includes(field);

/** Everything a list screen shows, without rendering anything (headless). */
export function useResourceListController(definition: ResourceDefinition, screenColumns: ListColumn<ListRecord>[]) {
  const params = useListParams();
  const location = useLocation();
  const figures = useListStatsFigures(definition);
  const statsColumns = useListStatsColumns(figures);
  const query = useResourceList<ListRecord>(definition, {
    page: params.page,
    limit: DEFAULT_PAGE_SIZE,
    search: params.search,
    status: params.status,
    // A figure the user does not see (no reports, no money) sorts nothing.
    ...(params.order_by && !isShownOrder(params.order_by, figures) ? {} : { order_by: params.order_by }),
    order: params.order,
    stats: figures.length > 0 ? params.period : undefined,
    stats_timezone: listStatsTimezone(),
  });
  const { confirmArchive, confirmRestore } = useStatusConfirm(definition);
  const canCreate = useResourceCan(definition, 'create');
  const canArchive = useResourceCan(definition, 'archive') && definition.archivable;
  // A copy is a new record, so cloning needs the create right.
  const canClone = canCreate && CLONABLE.has(definition.name);
  const confirmClone = useCloneConfirm(definition);
  const route = definition.route ?? '';

  useEffect(() => {
    if (definition.route) rememberListSearch(definition.route, location.search);
  }, [definition.route, location.search]);

  const records = query.data?.list ?? [];
  const total = query.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / DEFAULT_PAGE_SIZE));

  // After archiving the last record of the last page, step back to the page that still has records.
  const { setPage } = params;
  const pageIsPastTheEnd = query.isSuccess && !query.isPlaceholderData && total > 0 && params.page > pageCount;
  useEffect(() => {
    if (pageIsPastTheEnd) setPage(pageCount);
  }, [pageIsPastTheEnd, pageCount, setPage]);

  const recordId = (record: ListRecord) => record[definition.idField] as string | number;

  // The figures follow the name, where a buyer reads first; the screen's own columns after them.
  const columns = useMemo(() => {
    if (statsColumns.length === 0) return screenColumns;
    const linkIndex = Math.max(
      0,
      screenColumns.findIndex((column) => column.link),
    );
    return [...screenColumns.slice(0, linkIndex + 1), ...statsColumns, ...screenColumns.slice(linkIndex + 1)];
  }, [screenColumns, statsColumns]);

  const bulkActions = useAllowedBulkActions(definition);
  const pageIds = useMemo(
    () => records.map((record) => String(record[definition.idField])),
    [records, definition.idField],
  );
  const selection = useRowSelection(pageIds);

  return {
    definition,
    columns,
    figures,
    bulkActions,
    selection,
    params,
    records,
    total,
    pageCount,
    pageSize: DEFAULT_PAGE_SIZE,
    isLoading: query.isPending,
    isFetching: query.isFetching,
    canCreate,
    canArchive,
    canClone,
    createPath: `${route}/create`,
    editPath: (record: ListRecord) => `${route}/edit/${encodeURIComponent(String(recordId(record)))}`,
    recordId,
    isArchived: (record: ListRecord) => record.status === 'archived',
    archive: (record: ListRecord) => confirmArchive(record),
    restore: (record: ListRecord) => confirmRestore(record),
    clone: (record: ListRecord) => confirmClone(record),
  };
}

export type ResourceListController = ReturnType<typeof useResourceListController>;
