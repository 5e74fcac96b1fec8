import { Group, Pagination, Text } from '@mantine/core';
import { DEFAULT_PAGE_SIZE, type ReportMeta } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { useReportContext } from './ReportContext';
import { ReportSourceInfo } from './ReportSourceInfo';

/** Which rows are shown out of how many, which source counted them, and the pages (40 rows each, §9). */
export function ReportPagination({ shown, total, meta }: { shown: number; total: number; meta?: ReportMeta }) {
  const { t } = useTranslation('reports');
  const { params, update } = useReportContext();
  const from = (params.page - 1) * DEFAULT_PAGE_SIZE + 1;
  const pageCount = Math.ceil(total / DEFAULT_PAGE_SIZE);
  return (
    <Group justify="space-between" wrap="wrap">
      <Group gap={4} wrap="nowrap">
        <Text size="sm" c="dimmed">
          {t('table.range', { from, to: from + shown - 1, total })}
        </Text>
        <ReportSourceInfo meta={meta} />
      </Group>
      {pageCount > 1 && (
        <Pagination
          total={pageCount}
          value={params.page}
          onChange={(page) => update({ page })}
          getControlProps={(control) => ({ 'aria-label': t(`resources:list.pages.${control}`) })}
          getItemProps={(page) => ({ 'aria-label': t('resources:list.pages.page', { page }) })}
        />
      )}
    </Group>
  );
}
