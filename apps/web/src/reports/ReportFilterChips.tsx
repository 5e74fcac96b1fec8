import { Button, Group, Pill, Text } from '@mantine/core';
import type { ReportFilterGroup, ReportVarFilter } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { useReportFormat } from '../shared/reporting/useReportFormat';
import { useReportContext } from './ReportContext';

/** The values drilled into (and the var filters a link or view carries), each removable; shown only when there are some. */
export function ReportFilterChips() {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  const { params, update, removeFilter } = useReportContext();
  const filters = (Object.entries(params.filters) as [ReportFilterGroup, string | null][]).map(([group, value]) => ({
    key: `filter-${group}`,
    group,
    value,
    remove: () => removeFilter(group),
  }));
  const vars = (Object.entries(params.vars) as [ReportVarFilter, string | null][]).map(([group, value]) => ({
    key: `var-${group}`,
    group,
    value,
    remove: () => {
      const { [group]: _removed, ...rest } = params.vars;
      update({ vars: rest });
    },
  }));
  const entries = [...filters, ...vars];
  if (entries.length === 0) return null;
  return (
    <Group gap="xs" role="group" aria-label={t('filters.label')}>
      <Text size="sm" fw={600}>
        {t('filters.label')}
      </Text>
      {entries.map(({ key, group, value, remove }) => {
        const label = key.startsWith('filter-') ? params.labels[group] : undefined;
        const shown = format.groupValue(group, value, label);
        const name = format.groupName(group);
        return (
          <Pill
            key={key}
            size="md"
            withRemoveButton
            onRemove={remove}
            removeButtonProps={{ 'aria-label': t('filters.remove', { group: name, value: shown }) }}
          >
            <Text span size="sm" c="dimmed">
              {name}
            </Text>{' '}
            <Text span size="sm" fw={600}>
              {shown}
            </Text>
          </Pill>
        );
      })}
      <Button variant="subtle" size="compact-sm" onClick={() => update({ filters: {}, labels: {}, vars: {} })}>
        {t('filters.clear')}
      </Button>
    </Group>
  );
}
