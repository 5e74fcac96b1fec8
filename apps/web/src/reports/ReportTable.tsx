import { Anchor, Table } from '@mantine/core';
import type { ReportFigures, ReportMetric, ReportRow } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { RowEventLinks } from '../event-tables/RowEventLinks';
import { useReportContext } from './ReportContext';
import { ReportSortHeader } from './ReportSortHeader';
import { useReportFormat } from './useReportFormat';

/** The figures whose header explains them on hover (issue 18: which conversion states each counts). */
const HINTED: Partial<Record<ReportMetric, true>> = {
  conversions: true,
  revenue: true,
  revenue_confirmed: true,
  roi: true,
  roi_confirmed: true,
  cr: true,
  epc: true,
  cpc: true,
  cpa: true,
};

/**
 * The report's rows: one column per group, then every figure the user sees (issue 19: no money columns
 * without the money permission), then the workspace's custom metrics (issue 20); a totals row closes it.
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
  const groupName = format.groupNames(labels);
  const { params, metrics, customMetrics = [], drill, drillTarget, isFetching } = useReportContext();
  const groups = params.groups;
  const figure = (metric: ReportMetric, value: number) => (
    <Table.Td key={metric} ta="end" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
      {format.metric(metric, value)}
    </Table.Td>
  );
  // Issue 20: custom metrics after the built-in figures, with 2 decimals.
  const custom = (key: string, value: unknown) => (
    <Table.Td key={key} ta="end" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
      {typeof value === 'number' ? format.custom(value) : ''}
    </Table.Td>
  );

  return (
    <Table.ScrollContainer minWidth={1280}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-busy={isFetching}>
        <Table.Caption>{t('table.caption', { groups: groups.map(groupName).join(' › ') })}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {groups.map((group) => (
              <ReportSortHeader key={group} field={group}>
                {groupName(group)}
              </ReportSortHeader>
            ))}
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
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const target = drillTarget(row);
            return (
              <Table.Tr key={JSON.stringify(groups.map((group) => row[group]))}>
                {groups.map((group, index) => {
                  const shown = format.groupValue(group, row[group], row[`${group}_name`]);
                  return (
                    <Table.Td key={group} miw={140}>
                      {index === 0 && target?.groups?.[0] ? (
                        <Anchor
                          component="button"
                          type="button"
                          fw={500}
                          ta="start"
                          onClick={() => drill(row)}
                          title={t('table.open', { name: shown, next: groupName(target.groups[0]) })}
                        >
                          {shown}
                        </Anchor>
                      ) : (
                        shown
                      )}
                    </Table.Td>
                  );
                })}
                {metrics.map((metric) => figure(metric, row[metric]))}
                {customMetrics.map((metric) => custom(metric.key, row[metric.key]))}
                <Table.Td>
                  <RowEventLinks row={row} name={String(row.label)} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr fw={700}>
            <Table.Th colSpan={groups.length} scope="row">
              {t('table.total')}
            </Table.Th>
            {metrics.map((metric) => figure(metric, totals[metric]))}
            {customMetrics.map((metric) => custom(metric.key, (totals as Record<string, unknown>)[metric.key]))}
            <Table.Td>
              <RowEventLinks name={t('table.total')} />
            </Table.Td>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}
