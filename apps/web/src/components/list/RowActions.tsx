import { Button } from '@mantine/core';
import { IconArchive, IconRestore } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useResourceListContext } from './ResourceListContext';
import type { ListRecord } from './useResourceListController';

/** Archive or Restore for one row (§4), each behind the §8 confirmation. */
export function RowActions({ record }: { record: ListRecord }) {
  const { t } = useTranslation();
  const { isArchived, archive, restore } = useResourceListContext();
  return isArchived(record) ? (
    <Button
      size="compact-sm"
      variant="light"
      leftSection={<IconRestore size={14} aria-hidden />}
      onClick={() => restore(record)}
    >
      {t('resources:list.restore')}
    </Button>
  ) : (
    <Button
      size="compact-sm"
      variant="subtle"
      color="red"
      leftSection={<IconArchive size={14} aria-hidden />}
      onClick={() => archive(record)}
    >
      {t('resources:list.archive')}
    </Button>
  );
}
