import { MultiSelect } from '@mantine/core';
import { REPORT_GROUPS, REPORT_MAX_GROUPS, type ReportGroup } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { useReportFormat } from '../shared/reporting/useReportFormat';
import { useReportContext } from './ReportContext';
import { DEFAULT_GROUPS } from './reportParams';

/** Up to four groups, in the order picked: rows are grouped by the first, then the second, … */
export function GroupBySelect() {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  const { params, update } = useReportContext();
  const data = REPORT_GROUPS.map((group) => ({ value: group, label: format.groupName(group) }));
  return (
    <MultiSelect
      label={t('toolbar.groupBy')}
      description={t('toolbar.groupByHint', { max: REPORT_MAX_GROUPS })}
      placeholder={params.groups.length < REPORT_MAX_GROUPS ? t('toolbar.groupByPlaceholder') : undefined}
      data={data}
      value={params.groups}
      maxValues={REPORT_MAX_GROUPS}
      searchable
      hidePickedOptions
      comboboxProps={{ withinPortal: true }}
      onChange={(values) =>
        update({
          groups: values.length > 0 ? (values as ReportGroup[]) : DEFAULT_GROUPS,
          // The order named a column of the old grouping: back to the server's order.
          order_by: undefined,
        })
      }
      w={{ base: '100%', md: 360 }}
    />
  );
}
