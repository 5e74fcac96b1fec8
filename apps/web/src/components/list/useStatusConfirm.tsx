import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { ARCHIVE_GUARDED_RESOURCES, type RecordUser, type ResourceDefinition } from '@switchyard/domain';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useArchiveRecord } from '../../api/useArchiveRecord';
import { useRestoreRecord } from '../../api/useRestoreRecord';
import { showNotice } from '../feedback/showNotice';
import { useServerMessage } from '../feedback/useServerMessage';
import { recordName } from '../recordName';
import { UsedByList } from './UsedByList';

/**
 * The archive and restore confirmations of §8, naming the record by name and id (`{kind}
 * "{name}" (#{id})`); on success a notice and refreshed page data (§4).
 */
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
    async (record: Record<string, unknown>) => {
      const id = record[definition.idField] as string | number;
      // What still uses it is listed before anything is archived; confirming archives it anyway.
      let users: RecordUser[] = [];
      if (ARCHIVE_GUARDED_RESOURCES.has(definition.name)) {
        try {
          users = (
            await api<{ used_by: RecordUser[] }>(`${definition.apiPath}/${encodeURIComponent(String(id))}/usage`)
          ).used_by;
        } catch (error) {
          failed(error as Error);
          return;
        }
      }
      modals.openConfirmModal({
        title: t('resources:confirm.archiveTitle', { kind, id, name: recordName(definition, record) }),
        children:
          users.length > 0 ? <UsedByList users={users} /> : <Text size="sm">{t('resources:confirm.archiveText')}</Text>,
        labels: {
          confirm: t(users.length > 0 ? 'resources:confirm.archiveAnyway' : 'resources:confirm.archiveButton'),
          cancel: t('resources:confirm.cancel'),
        },
        confirmProps: { color: 'red' },
        onConfirm: () =>
          archive.mutate(
            { id, force: users.length > 0 },
            {
              onSuccess: () => showNotice({ message: t('resources:confirm.archived') }),
              onError: failed,
            },
          ),
      });
    },
    [t, kind, archive, failed, definition],
  );

  const confirmRestore = useCallback(
    (record: Record<string, unknown>) => {
      const id = record[definition.idField] as string | number;
      return modals.openConfirmModal({
        title: t('resources:confirm.restoreTitle', { kind, id, name: recordName(definition, record) }),
        labels: { confirm: t('resources:confirm.restoreButton'), cancel: t('resources:confirm.cancel') },
        onConfirm: () =>
          restore.mutate(id, {
            onSuccess: () => showNotice({ message: t('resources:confirm.restored') }),
            onError: failed,
          }),
      });
    },
    [t, kind, restore, failed, definition],
  );

  return { confirmArchive, confirmRestore, isChanging: archive.isPending || restore.isPending };
}
