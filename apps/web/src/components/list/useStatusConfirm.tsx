import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ResourceDefinition } from '@switchyard/domain';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useArchiveRecord } from '../../api/useArchiveRecord';
import { useRestoreRecord } from '../../api/useRestoreRecord';
import { showNotice } from '../feedback/showNotice';
import { useServerMessage } from '../feedback/useServerMessage';

/** The archive and restore confirmations of §8; on success a notice and refreshed page data (§4). */
export function useStatusConfirm(definition: ResourceDefinition) {
  const { t } = useTranslation();
  const serverMessage = useServerMessage();
  const archive = useArchiveRecord(definition);
  const restore = useRestoreRecord(definition);
  const kind = t(`resources:${definition.name}.kind`, { defaultValue: definition.name });
  const failed = useCallback(
    (error: Error) => showNotice({ kind: 'danger', message: serverMessage(error.message) }),
    [serverMessage],
  );

  const confirmArchive = useCallback(
    (id: string | number) =>
      modals.openConfirmModal({
        title: t('resources:confirm.archiveTitle', { kind, id }),
        children: <Text size="sm">{t('resources:confirm.archiveText')}</Text>,
        labels: { confirm: t('resources:confirm.archiveButton'), cancel: t('resources:confirm.cancel') },
        confirmProps: { color: 'red' },
        onConfirm: () =>
          archive.mutate(id, {
            onSuccess: () => showNotice({ message: t('resources:confirm.archived') }),
            onError: failed,
          }),
      }),
    [t, kind, archive, failed],
  );

  const confirmRestore = useCallback(
    (id: string | number) =>
      modals.openConfirmModal({
        title: t('resources:confirm.restoreTitle', { kind, id }),
        labels: { confirm: t('resources:confirm.restoreButton'), cancel: t('resources:confirm.cancel') },
        onConfirm: () =>
          restore.mutate(id, {
            onSuccess: () => showNotice({ message: t('resources:confirm.restored') }),
            onError: failed,
          }),
      }),
    [t, kind, restore, failed],
  );

  return { confirmArchive, confirmRestore, isChanging: archive.isPending || restore.isPending };
}
