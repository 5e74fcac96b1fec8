import { Group, Pagination, Text } from '@mantine/core';
import { DEFAULT_PAGE_SIZE } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { usePostbackLogContext } from './PostbackLogContext';

/** Which lines are shown out of how many, and the pages (40 a page, as every list). */
export function LogPagination({ shown, total }: { shown: number; total: number }) {
  const { t } = useTranslation();
  const { params } = usePostbackLogContext();
  const from = (params.page - 1) * DEFAULT_PAGE_SIZE + 1;
  const pageCount = Math.ceil(total / DEFAULT_PAGE_SIZE);
  return (
    <Group justify="space-between" wrap="wrap">
      <Text size="sm" c="dimmed">
        {t('resources:list.range', { from, to: from + shown - 1, total })}
      </Text>
      {pageCount > 1 && (
        <Pagination
          total={pageCount}
          value={params.page}
          onChange={params.setPage}
          getControlProps={(control) => ({ 'aria-label': t(`resources:list.pages.${control}`) })}
          getItemProps={(page) => ({ 'aria-label': t('resources:list.pages.page', { page }) })}
        />
      )}
    </Group>
  );
}
