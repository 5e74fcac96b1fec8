import type { ReportFigures, ReportMetric } from '@switchyard/domain';
import { useMemo } from 'react';
import { addDays, browserTimeZone, todayIn } from '../shared/reporting/dateRanges';
import { useReport } from './useReport';
import { seriesPoints } from './useReportSeries';

/** The days the dashboard's chart covers, today included. */
export const DASHBOARD_DAYS = 14;

/** The figures the dashboard compares, today against yesterday. */
export const DASHBOARD_METRICS: readonly ReportMetric[] = [
  'clicks',
  'unique_clicks',
  'leads',
  'conversions',
  'revenue',
  'profit',
  'roi',
  'epc',
];

const NO_FIGURES: ReportFigures = {
  clicks: 0,
  unique_clicks: 0,
  leads: 0,
  conversions: 0,
  approved: 0,
  pending: 0,
  rejected: 0,
  revenue: 0,
  revenue_confirmed: 0,
  cost: 0,
  profit: 0,
  roi: 0,
  roi_confirmed: 0,
  cr: 0,
  epc: 0,
  cpc: 0,
  cpa: 0,
  bot_clicks: 0,
  lp_clicks: 0,
  lp_ctr: 0,
};

/**
 * Today's and yesterday's figures and the last 14 days by day, from one report grouped by day in the
 * browser's timezone (what "today" means to the person looking).
 */
export function useDashboardFigures() {
  const timezone = useMemo(browserTimeZone, []);
  const range = useMemo(() => {
    const today = todayIn(timezone);
    return { from: addDays(today, -(DASHBOARD_DAYS - 1)), to: today };
  }, [timezone]);
  const report = useReport({ groups: ['day'], range, timezone, limit: 0 });
  const list = report.data?.list;
  return useMemo(() => {
    const byDay = new Map((list ?? []).map((row) => [String(row.day), row]));
    const figuresOf = (day: string): ReportFigures => byDay.get(day) ?? NO_FIGURES;
    return {
      today: figuresOf(range.to),
      yesterday: figuresOf(addDays(range.to, -1)),
      points: seriesPoints(range, list ?? []),
      isLoading: report.isLoading,
      isError: report.isError,
    };
  }, [list, range, report.isLoading, report.isError]);
}
