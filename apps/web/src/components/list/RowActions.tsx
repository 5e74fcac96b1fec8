import { Button, Group } from '@mantine/core';
import { IconArchive, IconCopy, IconRestore } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useResourceListContext } from './ResourceListContext';
import type { ListRecord } from './useResourceListController';

/** Clone and Archive or Restore for one row (§4), each behind a confirmation (§8). */
export function RowActions({ record }: { record: ListRecord }) {
  const { t } = useTranslation();
  const { isArchived, archive, restore, clone, canArchive, canClone } = useResourceListContext();
  return (
    <Group gap="xs" wrap="nowrap">
      {canClone && (
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconCopy size={14} aria-hidden />}
          onClick={() => clone(record)}
        >
          {t('history:clone.button')}
        </Button>
      )}
      {canArchive &&
        (isArchived(record) ? (
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
        ))}
    </Group>
  );
}
