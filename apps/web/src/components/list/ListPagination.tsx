import { Group, Pagination, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useResourceListContext } from './ResourceListContext';

/** Which records are shown out of how many, and the pages (size 40, §9). */
export function ListPagination() {
  const { t } = useTranslation();
  const { params, total, pageCount, pageSize, records } = useResourceListContext();
  const from = (params.page - 1) * pageSize + 1;
  const to = from + records.length - 1;
  return (
    <Group justify="space-between" wrap="wrap">
      <Text size="sm" c="dimmed">
        {t('resources:list.range', { from, to, total })}
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
