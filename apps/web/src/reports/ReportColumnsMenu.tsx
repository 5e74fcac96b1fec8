import { Button, Checkbox, Group, Popover, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useReportFormat } from '../shared/reporting/useReportFormat';
import { useReportContext } from './ReportContext';
import { DEFAULT_COLUMNS, type ReportLayout } from './reportParams';

/** Whether a column shows under `columns`: a built-in figure by the defaults, a custom metric until unpicked. */
function shownIn(columns: readonly string[] | undefined, key: string): boolean {
  if (columns) return columns.includes(key);
  return key.startsWith('cm_') || (DEFAULT_COLUMNS as readonly string[]).includes(key);
}

/**
 * "Columns": which figures the table shows, kept in the URL and so in saved views. Every figure the user
 * may see is offered (built-in ones, then custom metrics), so figures added to reports later are too.
 */
export function ReportColumnsMenu() {
  const { t } = useTranslation('reportLayout');
  const format = useReportFormat();
  const { allMetrics, allCustomMetrics, metrics, customMetrics, update } = useReportContext();
  const chosen = [...metrics, ...customMetrics.map((metric) => metric.key)];
  const order = [...allMetrics, ...allCustomMetrics.map((metric) => metric.key)] as string[];
  return (
    <Popover position="bottom-end" withinPortal trapFocus shadow="md">
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} aria-hidden />}>
          {t('columns.button', { count: chosen.length })}
        </Button>
      </Popover.Target>
      <Popover.Dropdown maw={320}>
        <Checkbox.Group
          label={t('columns.title')}
          description={t('columns.hint')}
          value={chosen}
          // The box ticked or cleared, applied to the columns as they are now (a quick second click must
          // not start from the state before the first); kept in the report's order.
          onChange={(values) => {
            const toggled = new Set([
              ...values.filter((key) => !chosen.includes(key)),
              ...chosen.filter((key) => !values.includes(key)),
            ]);
            update(
              (previous) => {
                const shown = new Set(order.filter((key) => shownIn(previous.columns, key)));
                for (const key of toggled) {
                  if (shown.has(key)) shown.delete(key);
                  else shown.add(key);
                }
                return { columns: order.filter((key) => shown.has(key)) };
              },
              { replace: true },
            );
          }}
        >
          <Stack gap={6} mt="xs" mah={320} style={{ overflowY: 'auto' }}>
            {allMetrics.map((metric) => (
              <Checkbox key={metric} value={metric} label={format.metricName(metric)} />
            ))}
            {allCustomMetrics.map((metric) => (
              <Checkbox key={metric.key} value={metric.key} label={metric.name} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Group justify="flex-end" mt="sm">
          <Button variant="subtle" size="xs" onClick={() => update({ columns: undefined }, { replace: true })}>
            {t('columns.reset', { count: DEFAULT_COLUMNS.length })}
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Tree or flat rows, offered when the report is grouped by more than one name. */
export function ReportLayoutSwitch({ disabledTree }: { disabledTree: boolean }) {
  const { t } = useTranslation('reportLayout');
  const { params, update } = useReportContext();
  if (params.groups.length < 2) return null;
  return (
    <Stack gap={4}>
      <Text component="span" size="sm" fw={500} id="sy-report-layout">
        {t('layout.label')}
      </Text>
      <SegmentedControl
        aria-labelledby="sy-report-layout"
        value={disabledTree ? 'flat' : params.layout}
        onChange={(value) => update({ layout: value as ReportLayout })}
        data={[
          { value: 'tree', label: t('layout.tree'), disabled: disabledTree },
          { value: 'flat', label: t('layout.flat') },
        ]}
      />
    </Stack>
  );
}
