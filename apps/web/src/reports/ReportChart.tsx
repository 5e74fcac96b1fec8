import '@mantine/charts/styles.css';
import { LineChart, type LineChartSeries } from '@mantine/charts';
import { useDirection } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { isDay } from './dateRanges';
import { useReportFormat } from './useReportFormat';
import type { SeriesPoint } from './useReportSeries';

export type SeriesName = Exclude<keyof SeriesPoint, 'bucket'>;

const COLORS: Record<SeriesName, string> = { clicks: 'brand.6', conversions: 'teal.6', revenue: 'orange.6' };

export interface ReportChartProps {
  points: SeriesPoint[];
  unit: 'day' | 'hour';
  /** The lines drawn, in order. */
  series: SeriesName[];
  /** The lines read against the second axis (conversions and revenue are far smaller numbers than clicks). */
  secondAxis?: SeriesName[];
  h?: number;
  /** What the chart shows, for screen readers. */
  label: string;
}

/** Figures over time; in Arabic time runs from right to left and the axes swap sides. */
export function ReportChart({ points, unit, series, secondAxis = [], h = 260, label }: ReportChartProps) {
  const { t, i18n } = useTranslation('reports');
  const format = useReportFormat();
  const rtl = useDirection().dir === 'rtl';
  const numbers = useMemo(() => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }), [i18n.language]);
  const lines: LineChartSeries[] = series.map((name) => ({
    name,
    label: t(`metrics.${name}`),
    color: COLORS[name],
    yAxisId: secondAxis.includes(name) ? 'right' : undefined,
  }));
  // Recharts also asks for the label of no point (an inactive tooltip): only real buckets are formatted.
  const bucketLabel = (bucket: unknown) => {
    if (typeof bucket !== 'string' || bucket === '') return '';
    return unit === 'hour' ? `${bucket}:00` : isDay(bucket) ? format.day(bucket) : bucket;
  };
  // Mantine nudges tick texts away from an axis on its usual side; on the other side they go the other way.
  const tick = (side: 'left' | 'right') => ({
    transform: `translate(${side === 'left' ? -10 : 10}, 0)`,
    fontSize: 12,
    fill: 'currentColor',
  });
  const near = rtl ? 'right' : 'left';
  const far = rtl ? 'left' : 'right';

  return (
    <LineChart
      h={h}
      role="img"
      aria-label={label}
      data={points}
      dataKey="bucket"
      series={lines}
      curveType="linear"
      withLegend
      withDots={points.length <= 31}
      withRightYAxis={secondAxis.length > 0}
      valueFormatter={(value) => numbers.format(value)}
      xAxisProps={{ tickFormatter: bucketLabel, reversed: rtl }}
      yAxisProps={{ orientation: near, tick: tick(near) }}
      rightYAxisProps={{ orientation: far, tick: tick(far) }}
      tooltipProps={{ labelFormatter: bucketLabel }}
    />
  );
}
