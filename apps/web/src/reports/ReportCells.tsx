import { Menu, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import type { ReportFigures, ReportFilterGroup, ReportGroup, ReportMetric, ReportRow } from '@switchyard/domain';
import { IconChevronDown } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportFormat } from '../shared/reporting/useReportFormat';
import { drillChoices, drillDown } from './drillDown';
import { useReportContext } from './ReportContext';
import { RowEventLinks } from './RowEventLinks';

const FIGURE_STYLE = { whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' } as const;

/** A row's figures: the chosen built-in columns, then the chosen custom metrics (2 decimals), then its events. */
export function FigureCells({
  figures,
  row,
  name,
  groups,
}: {
  figures: ReportFigures;
  row?: ReportRow;
  name: string;
  /** The groups `row` has values of, when not the report's (a tree row). */
  groups?: ReportGroup[];
}) {
  const format = useReportFormat();
  const { metrics, customMetrics } = useReportContext();
  return (
    <>
      {metrics.map((metric: ReportMetric) => (
        <Table.Td key={metric} ta="end" style={FIGURE_STYLE}>
          {format.metric(metric, figures[metric])}
        </Table.Td>
      ))}
      {customMetrics.map((metric) => {
        const value = (figures as Record<string, unknown>)[metric.key];
        return (
          <Table.Td key={metric.key} ta="end" style={FIGURE_STYLE}>
            {typeof value === 'number' ? format.custom(value) : ''}
          </Table.Td>
        );
      })}
      <Table.Td>
        <RowEventLinks row={row} name={name} groups={groups} />
      </Table.Td>
    </>
  );
}

/** A long name cut to one line; the whole of it on hover and for screen readers (it stays in the page). */
export function TruncatedName({ children, text }: { children?: ReactNode; text: string }) {
  return (
    <Tooltip label={text} openDelay={300} multiline maw={420} events={{ hover: true, focus: false, touch: true }}>
      <Text component="span" inherit truncate="end" display="block" className="sy-report-name">
        {children ?? text}
      </Text>
    </Tooltip>
  );
}

/**
 * A row's name that opens it: a menu asks which level to show its rows by, the usual next one first.
 * A row that can be opened nowhere shows its name only.
 */
export function DrillName({ row, shown, groups }: { row: ReportRow; shown: string; groups?: ReportGroup[] }) {
  const { t } = useTranslation('reportLayout');
  const format = useReportFormat();
  const context = useReportContext();
  const params = groups ? { ...context.params, groups } : context.params;
  const choices = drillChoices(params, row);
  const drill = (next: ReportFilterGroup) => {
    const target = drillDown(params, row, next);
    if (target) context.update(target);
  };
  if (choices.length === 0) return <TruncatedName text={shown} />;
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <UnstyledButton className="sy-report-drill" fw={500} aria-description={t('drill.hint')}>
          <TruncatedName text={shown} />
          <IconChevronDown size={14} aria-hidden className="sy-report-drill-icon" />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown mah={360} style={{ overflowY: 'auto' }}>
        <Menu.Label>{t('drill.title', { name: shown })}</Menu.Label>
        {choices.map((group) => (
          <Menu.Item key={group} onClick={() => drill(group)}>
            {format.groupName(group)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
