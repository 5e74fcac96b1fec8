import { Box, Group, SimpleGrid, Text, useDirection } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { isDay } from '../shared/reporting/dateRanges';
import { useReportFormat } from '../shared/reporting/useReportFormat';
import type { SeriesPoint } from './useReportSeries';
import './reportChart.css';

export type SeriesName = Exclude<keyof SeriesPoint, 'bucket'>;

const COLORS: Record<SeriesName, string> = {
  clicks: 'var(--mantine-color-brand-7)',
  conversions: 'var(--mantine-color-teal-8)',
  revenue: 'var(--mantine-color-orange-8)',
};

export interface ReportChartProps {
  points: SeriesPoint[];
  unit: 'day' | 'hour';
  /** The figures drawn, each in its own panel on its own scale, in order. */
  series: SeriesName[];
  h?: number;
  /** What the chart shows, for screen readers. */
  label: string;
}

const WIDTH = 600;
const PAD = { top: 8, bottom: 22, side: 8 };

/**
 * Figures over time, one small panel per figure, each on its own scale from zero: clicks and conversions
 * differ by orders of magnitude, and two scales drawn over each other make lines cross that mean nothing.
 * Plain SVG (no chart library in the download). In Arabic time runs from right to left.
 */
export function ReportChart({ points, unit, series, h = 260, label }: ReportChartProps) {
  const panelHeight = Math.max(120, Math.round(h / Math.max(1, Math.ceil(series.length / 2))));
  return (
    <SimpleGrid cols={{ base: 1, md: Math.min(series.length, 3) }} spacing="md" role="group" aria-label={label}>
      {series.map((name) => (
        <SeriesPanel key={name} name={name} points={points} unit={unit} height={panelHeight} />
      ))}
    </SimpleGrid>
  );
}

function SeriesPanel({
  name,
  points,
  unit,
  height,
}: {
  name: SeriesName;
  points: SeriesPoint[];
  unit: 'day' | 'hour';
  height: number;
}) {
  const { t, i18n } = useTranslation('reports');
  const format = useReportFormat();
  const rtl = useDirection().dir === 'rtl';
  const numbers = useMemo(() => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }), [i18n.language]);
  const values = points.map((point) => point[name]);
  const max = Math.max(0, ...values);
  const total = values.reduce((sum, value) => sum + value, 0);
  const bucketLabel = (bucket: string) =>
    unit === 'hour' ? `${bucket}:00` : isDay(bucket) ? format.day(bucket) : bucket;
  const plotHeight = height - PAD.top - PAD.bottom;
  const step = points.length > 1 ? (WIDTH - 2 * PAD.side) / (points.length - 1) : 0;
  const x = (index: number) => {
    const position = PAD.side + index * step;
    return rtl ? WIDTH - position : position;
  };
  const y = (value: number) => PAD.top + plotHeight - (max > 0 ? (value / max) * plotHeight : 0);
  const line = points.map((point, index) => `${x(index).toFixed(1)},${y(point[name]).toFixed(1)}`).join(' ');
  const ticks =
    points.length > 2 ? [0, Math.floor((points.length - 1) / 2), points.length - 1] : points.map((_, i) => i);
  const title = t(`metrics.${name}`);
  const summary = t('reportLayout:chart.panel', {
    name: title,
    total: numbers.format(total),
    max: numbers.format(max),
    from: points[0] ? bucketLabel(points[0].bucket) : '',
    to: points.at(-1) ? bucketLabel(points.at(-1)?.bucket ?? '') : '',
  });

  return (
    <Box className="sy-chart-panel">
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={600} className="sy-chart-title" style={{ borderInlineStart: `4px solid ${COLORS[name]}` }}>
          {title}
        </Text>
        <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
          {numbers.format(total)}
        </Text>
      </Group>
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        height={height}
        preserveAspectRatio="none"
        role="img"
        aria-label={summary}
        className="sy-chart"
      >
        <line x1={0} x2={WIDTH} y1={y(0)} y2={y(0)} className="sy-chart-axis" />
        <line x1={0} x2={WIDTH} y1={PAD.top} y2={PAD.top} className="sy-chart-grid" />
        <polyline points={line} fill="none" stroke={COLORS[name]} strokeWidth={2} vectorEffect="non-scaling-stroke" />
        {points.length <= 31 &&
          points.map((point, index) => (
            <circle key={point.bucket} cx={x(index)} cy={y(point[name])} r={3} fill={COLORS[name]}>
              <title>{`${bucketLabel(point.bucket)}: ${numbers.format(point[name])}`}</title>
            </circle>
          ))}
      </svg>
      <Group justify="space-between" gap={4} wrap="nowrap" className="sy-chart-ticks" aria-hidden>
        {ticks.map((index) => (
          <Text key={index} size="xs" c="dimmed">
            {points[index] ? bucketLabel(points[index].bucket) : ''}
          </Text>
        ))}
      </Group>
      <Text size="xs" c="dimmed" aria-hidden>
        {t('reportLayout:chart.max', { value: numbers.format(max) })}
      </Text>
    </Box>
  );
}
