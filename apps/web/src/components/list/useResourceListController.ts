import { CLONABLE, DEFAULT_PAGE_SIZE, type ResourceDefinition } from '@switchyard/domain';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useResourceList } from '../../api/useResourceList';
import { useResourceCan } from '../access/useResourceCan';
import { rememberListSearch } from './listReturnPath';
import type { ListColumn } from './types';
import { useCloneConfirm } from './useCloneConfirm';
import { useListParams } from './useListParams';
import { useStatusConfirm } from './useStatusConfirm';

export type ListRecord = Record<string, unknown>;

/** Everything a list screen shows, without rendering anything (headless; STYLE.md). */
export function useResourceListController(definition: ResourceDefinition, columns: ListColumn<ListRecord>[]) {
  const params = useListParams();
  const location = useLocation();
  const query = useResourceList<ListRecord>(definition, {
    page: params.page,
    limit: DEFAULT_PAGE_SIZE,
    search: params.search,
    status: params.status,
    order_by: params.order_by,
    order: params.order,
  });
  const { confirmArchive, confirmRestore } = useStatusConfirm(definition);
  const canCreate = useResourceCan(definition, 'create');
  const canArchive = useResourceCan(definition, 'archive') && definition.archivable;
  // Issue 21: a copy is a new record, so cloning needs the create right.
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

  return {
    definition,
    columns,
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
