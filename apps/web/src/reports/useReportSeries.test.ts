import type { ReportRow } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import { seriesPoints, seriesUnit } from './useReportSeries';

const row = (values: Record<string, unknown>) => values as unknown as ReportRow;

describe('report series', () => {
  it('fills every day of the range, zero where there was no traffic', () => {
    const range = { from: '2026-02-27', to: '2026-03-01' };
    expect(seriesUnit(range)).toBe('day');
    expect(seriesPoints(range, [row({ day: '2026-02-28', clicks: 5, conversions: 1, revenue: 2.5 })])).toEqual([
      { bucket: '2026-02-27', clicks: 0, conversions: 0, revenue: 0 },
      { bucket: '2026-02-28', clicks: 5, conversions: 1, revenue: 2.5 },
      { bucket: '2026-03-01', clicks: 0, conversions: 0, revenue: 0 },
    ]);
  });

  it('goes by hour over one day', () => {
    const range = { from: '2026-03-01', to: '2026-03-01' };
    expect(seriesUnit(range)).toBe('hour');
    const points = seriesPoints(range, [row({ hour: '07', clicks: 3, conversions: 0, revenue: 0 })]);
    expect(points).toHaveLength(24);
    expect(points[0]?.bucket).toBe('00');
    expect(points[7]).toEqual({ bucket: '07', clicks: 3, conversions: 0, revenue: 0 });
  });
});
