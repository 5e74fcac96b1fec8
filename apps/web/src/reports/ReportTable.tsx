import { Table } from '@mantine/core';
import type { ReportFigures, ReportMetric, ReportRow } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { useReportFormat } from '../shared/reporting/useReportFormat';
import { DrillName, FigureCells, TruncatedName } from './ReportCells';
import { useReportContext } from './ReportContext';
import { ReportScroll } from './ReportScroll';
import { ReportSortHeader } from './ReportSortHeader';

/** The figures whose header explains them on hover (which conversion states each counts). */
export const HINTED: Partial<Record<ReportMetric, true>> = {
  conversions: true,
  revenue: true,
  revenue_confirmed: true,
  roi: true,
  roi_confirmed: true,
  cr: true,
  epc: true,
  cpc: true,
  cpa: true,
  bot_clicks: true,
  lp_clicks: true,
  lp_ctr: true,
};

/** The figure headers: the chosen columns (no money without the money permission), custom metrics, events. */
export function FigureHeaders() {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  const { metrics, customMetrics } = useReportContext();
  return (
    <>
      {metrics.map((metric) => (
        <ReportSortHeader
          key={metric}
          field={metric}
          numeric
          hint={HINTED[metric] ? t(`metricHints.${metric}`) : undefined}
        >
          {format.metricName(metric)}
        </ReportSortHeader>
      ))}
      {customMetrics.map((metric) => (
        <ReportSortHeader key={metric.key} field={metric.key as `cm_${string}`} numeric hint={metric.formula}>
          {metric.name}
        </ReportSortHeader>
      ))}
      <Table.Th>{t('events:show.header')}</Table.Th>
    </>
  );
}

/**
 * The report's rows as a flat table: one column per group (the first stays in view while the figures
 * scroll), then the chosen figures; a totals row closes it.
 */
export function ReportTable({
  rows,
  totals,
  labels,
}: {
  rows: ReportRow[];
  totals: ReportFigures;
  /** The traffic source's names of the vars (the report's `meta.labels`). */
  labels?: Readonly<Record<string, string>> | undefined;
}) {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  const { params, isFetching } = useReportContext();
  const groups = params.groups;
  const groupName = format.groupNames(labels);
  const caption = t('table.caption', { groups: groups.map(groupName).join(' › ') });

  return (
    <ReportScroll label={caption}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-busy={isFetching} className="sy-report-table">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {groups.map((group, index) => (
              <ReportSortHeader key={group} field={group} sticky={index === 0}>
                {groupName(group)}
              </ReportSortHeader>
            ))}
            <FigureHeaders />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={JSON.stringify(groups.map((group) => row[group]))}>
              {groups.map((group, index) => {
                const shown = format.groupValue(group, row[group], row[`${group}_name`]);
                return (
                  <Table.Td key={group} className={index === 0 ? 'sy-report-sticky' : 'sy-report-group'}>
                    {index === 0 ? <DrillName row={row} shown={shown} /> : <TruncatedName text={shown} />}
                  </Table.Td>
                );
              })}
              <FigureCells figures={row} row={row} name={String(row.label)} />
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr fw={700}>
            <Table.Th colSpan={groups.length} scope="row" className="sy-report-sticky">
              {t('table.total')}
            </Table.Th>
            <FigureCells figures={totals} name={t('table.total')} />
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ReportScroll>
  );
}
