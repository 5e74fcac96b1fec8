import { Table } from '@mantine/core';
import {
  isMoneyMetric,
  LIST_STATS_FIGURES,
  LIST_STATS_GROUPS,
  type ListStatsFigure,
  type ResourceDefinition,
} from '@switchyard/domain';
import { type ReactNode, useMemo } from 'react';
import { useCan } from '../../shared/auth/useCan';
import { browserTimeZone } from '../../shared/reporting/dateRanges';
import { useReportFormat } from '../../shared/reporting/useReportFormat';
import { useSeesMoney } from '../../shared/reporting/useSeesMoney';
import type { ListColumn } from './types';

// Lists of the records reports group by (campaigns, offers, landers, traffic sources and
// networks; LIST_STATS_GROUPS of the registry) show each row's clicks, conversions, revenue, cost,
// profit and ROI over a period, read as reports read them.

const FIGURE_STYLE = { whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' } as const;

/**
 * The figures the signed-in user sees on this list (money only for those who see money), or none: the
 * resource has no figures, or the user may not read reports (the server would refuse the list).
 */
export function useListStatsFigures(definition: ResourceDefinition): readonly ListStatsFigure[] {
  const readsReports = useCan('tracker', 'reports', 'get');
  const seesMoney = useSeesMoney();
  const hasStats = LIST_STATS_GROUPS[definition.name] !== undefined;
  return useMemo(
    () => (hasStats && readsReports ? LIST_STATS_FIGURES.filter((figure) => seesMoney || !isMoneyMetric(figure)) : []),
    [hasStats, readsReports, seesMoney],
  );
}

/** The timezone a list's days are counted in: the browser's, as on the reports screen. */
export const listStatsTimezone = browserTimeZone;

/** One column per figure, read from the row's `stats`; a row the server sent none for shows a dash. */
export function useListStatsColumns(figures: readonly ListStatsFigure[]): ListColumn[] {
  const format = useReportFormat();
  return useMemo(
    () =>
      figures.map((figure) => ({
        accessor: `stats.${figure}`,
        label: `reports:metrics.${figure}`,
        figure: true,
        render: (record: Record<string, unknown>) => {
          const value = (record.stats as Partial<Record<ListStatsFigure, unknown>> | undefined)?.[figure];
          return typeof value === 'number' ? format.metric(figure, value) : '—';
        },
      })),
    [figures, format],
  );
}

/** A figure's cell: at the end of its column, in figures of one width, never wrapped. */
export function FigureCell({ children, dimmed }: { children: ReactNode; dimmed?: boolean }) {
  return (
    <Table.Td ta="end" style={FIGURE_STYLE} opacity={dimmed ? 0.55 : undefined} className="sy-list-figure">
      {children}
    </Table.Td>
  );
}
