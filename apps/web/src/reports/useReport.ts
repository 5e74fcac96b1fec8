import { DEFAULT_PAGE_SIZE, type ReportAttribution, type ReportGroup, type ReportResponse } from '@switchyard/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type QueryValue } from '../api/client';
import type { DateRange } from '../shared/reporting/dateRanges';
import type { ReportFilters, ReportOrder, ReportOrderField, ReportVars } from './reportParams';

/** What `GET /api/reports` is asked (§7.5); the screen, its chart, its export and the dashboard share it. */
export interface ReportRequest {
  groups: readonly ReportGroup[];
  range: DateRange;
  timezone: string;
  search?: string;
  filters?: ReportFilters;
  vars?: ReportVars;
  /** Left out, the server's default (click time). */
  attribution?: ReportAttribution;
  /** Bots' clicks counted in; left out (the default), human clicks only. */
  includeBots?: boolean;
  order_by?: ReportOrderField;
  order?: ReportOrder;
  page?: number;
  /** 0: every row. */
  limit?: number;
}

export function reportQuery(request: ReportRequest): Record<string, QueryValue> {
  const filters = request.filters ?? {};
  const vars = request.vars ?? {};
  return {
    group_by: request.groups.join(','),
    date_from: request.range.from,
    date_to: request.range.to,
    timezone: request.timezone,
    search_text: request.search?.trim() || undefined,
    filters: Object.keys(filters).length > 0 ? JSON.stringify(filters) : undefined,
    vars: Object.keys(vars).length > 0 ? JSON.stringify(vars) : undefined,
    attribution: request.attribution,
    include_bots: request.includeBots ? 'true' : undefined,
    order_by: request.order_by,
    order: request.order_by ? request.order : undefined,
    page: request.page ?? 1,
    limit: request.limit ?? DEFAULT_PAGE_SIZE,
  };
}

export const reportKeys = {
  report: (query: Record<string, QueryValue>) => ['reports', query] as const,
};

export function fetchReport(request: ReportRequest, signal?: AbortSignal): Promise<ReportResponse> {
  return api<ReportResponse>('reports', { query: reportQuery(request), signal });
}

/**
 * One report. While the next page, order, period or filter loads, the previous answer stays on screen so
 * the table does not flash — but not across a change of grouping, whose rows have other columns.
 */
export function useReport(request: ReportRequest) {
  const query = reportQuery(request);
  return useQuery({
    queryKey: reportKeys.report(query),
    queryFn: ({ signal }) => api<ReportResponse>('reports', { query, signal }),
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1].group_by === query.group_by ? keepPreviousData(previous) : undefined,
  });
}
