import {
  DEFAULT_PAGE_SIZE,
  type ListOrderField,
  type ListResponse,
  type ListStatsPeriod,
  type ResourceDefinition,
  SORT_FIELDS,
  type SORT_ORDERS,
  type StatusFilter,
} from '@switchyard/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiList } from './client';
import { resourceKeys } from './queryKeys';

export interface ResourceListParams {
  page: number;
  limit?: number;
  search?: string;
  /** Sent only for archivable resources. */
  status?: StatusFilter;
  /** A figure only with `stats`. */
  order_by?: ListOrderField;
  order?: (typeof SORT_ORDERS)[number];
  /** Each row's figures over this period, its days counted in `stats_timezone`. */
  stats?: ListStatsPeriod;
  stats_timezone?: string;
}

const EMPTY_LIST: ListResponse<never> = { list: [], total: 0 };

const isColumn = (field: string | undefined) => (SORT_FIELDS as readonly string[]).includes(field ?? '');

/**
 * One page of a resource's records. §8: a failed fetch is logged to the console and reads as an empty
 * list with total 0 — no notice for the operator.
 */
export function useResourceList<TRecord = Record<string, unknown>>(
  definition: ResourceDefinition,
  params: ResourceListParams,
) {
  const query = {
    page: params.page,
    limit: params.limit ?? DEFAULT_PAGE_SIZE,
    search: params.search || undefined,
    status: definition.archivable ? params.status : undefined,
    order_by: params.order_by,
    order: params.order_by ? params.order : undefined,
    stats: params.stats,
    stats_timezone: params.stats ? params.stats_timezone : undefined,
  };
  return useQuery({
    queryKey: resourceKeys.list(definition, query),
    queryFn: async ({ signal }): Promise<ListResponse<TRecord>> => {
      try {
        return await apiList<TRecord>(definition.apiPath, { query, signal });
      } catch (error) {
        if (signal.aborted) throw error;
        console.error(`Unable to load ${definition.name}`, error);
        if (!query.stats) return EMPTY_LIST;
      }
      // The figures come from the report engine, which may be busy: the records still show, without them.
      try {
        return await apiList<TRecord>(definition.apiPath, {
          query: {
            ...query,
            stats: undefined,
            stats_timezone: undefined,
            // Without figures, an order by one would be refused: the records come in their own order.
            ...(isColumn(query.order_by) ? {} : { order_by: undefined, order: undefined }),
          },
          signal,
        });
      } catch (error) {
        if (signal.aborted) throw error;
        return EMPTY_LIST;
      }
    },
    placeholderData: keepPreviousData,
  });
}
