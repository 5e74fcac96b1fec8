import type { ReportRow } from '@switchyard/domain';
import { useMemo } from 'react';
import { type DateRange, daysOf } from '../shared/reporting/dateRanges';
import type { ReportFilters } from './reportParams';
import { useReport } from './useReport';

export interface SeriesPoint {
  /** The day (`2026-03-01`) or the hour (`07`). */
  bucket: string;
  clicks: number;
  conversions: number;
  revenue: number;
}

/** By hour over a single day, by day otherwise. */
export function seriesUnit(range: DateRange): 'day' | 'hour' {
  return range.from === range.to ? 'hour' : 'day';
}

/** Every day or hour of the range, the ones without traffic at zero, so the line shows the gaps. */
export function seriesPoints(range: DateRange, rows: readonly ReportRow[]): SeriesPoint[] {
  const unit = seriesUnit(range);
  const byBucket = new Map(rows.map((row) => [String(row[unit]), row]));
  const buckets =
    unit === 'hour' ? Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0')) : daysOf(range);
  return buckets.map((bucket) => {
    const row = byBucket.get(bucket);
    return { bucket, clicks: row?.clicks ?? 0, conversions: row?.conversions ?? 0, revenue: row?.revenue ?? 0 };
  });
}

/** The report over time: a second request grouped by day or hour, with the same range and filters. */
export function useReportSeries(range: DateRange, timezone: string, filters: ReportFilters = {}) {
  const unit = seriesUnit(range);
  const report = useReport({ groups: [unit], range, timezone, filters, limit: 0 });
  const list = report.data?.list;
  const points = useMemo(() => seriesPoints(range, list ?? []), [range, list]);
  return { unit, points, isLoading: report.isLoading, isError: report.isError };
}
