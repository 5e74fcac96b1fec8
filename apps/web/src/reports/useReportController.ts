import {
  DEFAULT_PAGE_SIZE,
  isMoneyMetric,
  REPORT_METRICS,
  type ReportFilterGroup,
  type ReportRow,
} from '@switchyard/domain';
import { useCallback, useMemo } from 'react';
import { useSeesMoney } from '../shared/reporting/useSeesMoney';
import { drillDown } from './drillDown';
import { DEFAULT_COLUMNS, type ReportFilters, type ReportOrderField, rangeOf } from './reportParams';
import { showsAsTree, treeLevelRequest } from './reportTree';
import { useCustomMetrics } from './useCustomMetrics';
import { type ReportRequest, useReport } from './useReport';
import { useReportParams } from './useReportParams';

/** Everything the reports screen shows and does, for its parts to read through ReportContext. */
export function useReportController() {
  const { params, update, load } = useReportParams();
  // Presets are worked out once per visit of a URL: "today" does not move while the screen is open.
  const range = useMemo(() => rangeOf(params), [params]);
  // Without the money permission the server leaves money figures out, and refuses to sort by
  // one; a link sorted by revenue opens in the report's own order instead.
  const seesMoney = useSeesMoney();
  const allMetrics = useMemo(
    () => (seesMoney ? REPORT_METRICS : REPORT_METRICS.filter((metric) => !isMoneyMetric(metric))),
    [seesMoney],
  );
  // The workspace's custom metrics, as columns after the built-in figures (those that read
  // money only for who sees money: the server leaves them out too).
  const allCustom = useCustomMetrics().data;
  const allCustomMetrics = useMemo(
    () => (allCustom ?? []).filter((metric) => seesMoney || !metric.money),
    [allCustom, seesMoney],
  );
  // The column chooser's pick (kept in the URL and in saved views); custom metrics show until unpicked.
  const metrics = useMemo(
    () => allMetrics.filter((metric) => (params.columns ?? DEFAULT_COLUMNS).includes(metric)),
    [allMetrics, params.columns],
  );
  const customMetrics = useMemo(
    () => allCustomMetrics.filter((metric) => !params.columns || params.columns.includes(metric.key)),
    [allCustomMetrics, params.columns],
  );
  // A link sorted by a custom metric that is gone (or hidden) opens in the report's own order.
  const unknownCustom =
    params.order_by?.startsWith('cm_') &&
    allCustom !== undefined &&
    !allCustomMetrics.some((metric) => metric.key === params.order_by);
  const orderBy =
    (params.order_by && !seesMoney && isMoneyMetric(params.order_by)) || unknownCustom ? undefined : params.order_by;
  const request: ReportRequest = {
    groups: params.groups,
    range,
    timezone: params.timezone,
    search: params.search,
    filters: params.filters,
    vars: params.vars,
    attribution: params.attribution,
    includeBots: params.includeBots,
    order_by: orderBy,
    order: params.order,
    page: params.page,
    limit: DEFAULT_PAGE_SIZE,
  };
  // As a tree, the screen's own rows are the first level's; each row opens onto the next level's.
  const report = useReport(showsAsTree(params) ? treeLevelRequest(request, 0, []) : request);

  /** Where opening a row leads (to `next`, or the usual next level), or null when it leads nowhere. */
  const drillTarget = useCallback((row: ReportRow, next?: ReportFilterGroup) => drillDown(params, row, next), [params]);
  const drill = useCallback(
    (row: ReportRow, next?: ReportFilterGroup) => {
      const target = drillDown(params, row, next);
      if (target) update(target);
    },
    [params, update],
  );

  const setSort = useCallback(
    (field: ReportOrderField) => {
      const active = params.order_by === field;
      // Figures start with the largest, names from A.
      const first = (REPORT_METRICS as readonly string[]).includes(field) || field.startsWith('cm_') ? 'desc' : 'asc';
      update({ order_by: field, order: active ? (params.order === 'asc' ? 'desc' : 'asc') : first });
    },
    [params.order_by, params.order, update],
  );

  const removeFilter = useCallback(
    (group: keyof ReportFilters) => {
      const { [group]: _removed, ...filters } = params.filters;
      update({ filters });
    },
    [params.filters, update],
  );

  return {
    params,
    update,
    load,
    range,
    request,
    /** The figures this user may see, in order (no money without its permission). */
    allMetrics,
    /** The custom metrics this user may see. */
    allCustomMetrics,
    /** Of those, the columns shown (the column chooser's pick). */
    metrics,
    /** Of the custom metrics, the columns shown, each after `metrics`. */
    customMetrics,
    seesMoney,
    report: report.data,
    isLoading: report.isLoading,
    isFetching: report.isFetching,
    error: report.error,
    /** Asks the report again (after a 503: reports were busy). */
    retry: report.refetch,
    drill,
    drillTarget,
    setSort,
    removeFilter,
  };
}

export type ReportController = ReturnType<typeof useReportController>;
