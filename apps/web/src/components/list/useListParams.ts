import {
  DEFAULT_PAGE,
  LIST_ORDER_FIELDS,
  LIST_STATS_PERIODS,
  type ListOrderField,
  type ListStatsPeriod,
  SORT_ORDERS,
  STATUS_FILTERS,
  type StatusFilter,
} from '@switchyard/domain';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** A column (name, created, updated) or, on lists with figures, a figure. */
export type SortField = ListOrderField;
export type SortOrder = (typeof SORT_ORDERS)[number];

export interface ListParams {
  page: number;
  search: string;
  status: StatusFilter;
  order_by?: SortField;
  order: SortOrder;
  /** The period of the rows' figures, on lists that have them. */
  period: ListStatsPeriod;
}

const DEFAULTS: ListParams = { page: DEFAULT_PAGE, search: '', status: 'active', order: 'asc', period: 'today' };

function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | undefined {
  return allowed.find((candidate) => candidate === value);
}

export function parseListParams(searchParams: URLSearchParams): ListParams {
  const page = Number(searchParams.get('page'));
  return {
    page: Number.isInteger(page) && page >= 1 ? page : DEFAULTS.page,
    search: searchParams.get('search') ?? DEFAULTS.search,
    status: oneOf(STATUS_FILTERS, searchParams.get('status')) ?? DEFAULTS.status,
    order_by: oneOf(LIST_ORDER_FIELDS, searchParams.get('order_by')),
    order: oneOf(SORT_ORDERS, searchParams.get('order')) ?? DEFAULTS.order,
    period: oneOf(LIST_STATS_PERIODS, searchParams.get('period')) ?? DEFAULTS.period,
  };
}

/**
 * The list state of §2.5 kept in the URL (`?page=2&search=foo&status=archived&order_by=name&order=desc`,
 * and `&period=last_7_days` for the figures),
 * so leaving for an edit screen and coming back restores it. Defaults stay out of the URL; changing the
 * search, filter or sort goes back to page 1.
 */
export function useListParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(() => parseListParams(searchParams), [searchParams]);

  const update = useCallback(
    (changes: Partial<ListParams>, options?: { replace?: boolean }) => {
      setSearchParams(
        (previous) => {
          const next = { ...parseListParams(previous), ...changes };
          if (changes.page === undefined) next.page = DEFAULTS.page;
          const result = new URLSearchParams(previous);
          const set = (key: string, value: string | undefined, fallback?: string) => {
            if (value === undefined || value === '' || value === fallback) result.delete(key);
            else result.set(key, value);
          };
          set('page', String(next.page), String(DEFAULTS.page));
          set('search', next.search.trim());
          set('status', next.status, DEFAULTS.status);
          set('order_by', next.order_by);
          set('order', next.order_by ? next.order : undefined);
          set('period', next.period, DEFAULTS.period);
          return result;
        },
        { replace: options?.replace },
      );
    },
    [setSearchParams],
  );

  return {
    ...params,
    setPage: useCallback((page: number) => update({ page }), [update]),
    /** Typing replaces the history entry instead of stacking one per keystroke. */
    setSearch: useCallback((search: string) => update({ search }, { replace: true }), [update]),
    setStatus: useCallback((status: StatusFilter) => update({ status }), [update]),
    /** Another period keeps the page: the same records, other figures. */
    setPeriod: useCallback((period: ListStatsPeriod) => update({ period, page: params.page }), [update, params.page]),
    setSort: useCallback(
      (order_by: SortField | undefined, order: SortOrder = 'asc') => update({ order_by, order }),
      [update],
    ),
  };
}

export type ListParamsController = ReturnType<typeof useListParams>;
