import { Button, Group, Pill, Text } from '@mantine/core';
import type { ReportFilterGroup } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { useReportContext } from './ReportContext';
import { useReportFormat } from './useReportFormat';

/** The values drilled into, each removable; shown only when there are some. */
export function ReportFilterChips() {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  const { params, update, removeFilter } = useReportContext();
  const entries = Object.entries(params.filters) as [ReportFilterGroup, string | null][];
  if (entries.length === 0) return null;
  return (
    <Group gap="xs" role="group" aria-label={t('filters.label')}>
      <Text size="sm" fw={600}>
        {t('filters.label')}
      </Text>
      {entries.map(([group, value]) => {
        const shown = value === null ? t('none') : (params.labels[group] ?? value);
        const name = format.groupName(group);
        return (
          <Pill
            key={group}
            size="md"
            withRemoveButton
            onRemove={() => removeFilter(group)}
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
      <Button variant="subtle" size="compact-sm" onClick={() => update({ filters: {}, labels: {} })}>
        {t('filters.clear')}
      </Button>
    </Group>
  );
}
