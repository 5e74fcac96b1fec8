import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { HistoryEntry } from '@switchyard/domain';
import { IconHistory } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { showNotice } from '../components/feedback/showNotice';
import { useServerMessage } from '../components/feedback/useServerMessage';
import { formatDateTime } from '../components/list/formatDateTime';
import { useHistoryEntry, useRestoreHistoryEntry } from './api';
import { type FieldLabel, HistoryChanges } from './HistoryChanges';

const ACTION_COLORS: Record<string, string> = {
  create: 'green',
  update: 'blue',
  archive: 'orange',
  restore: 'teal',
  login_failed: 'red',
};

/** Who, when, from where and what: the line above an entry's changes. */
export function HistoryEntryHeading({ entry, children }: { entry: HistoryEntry; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="wrap">
      <Badge color={ACTION_COLORS[entry.action] ?? 'gray'} variant="light">
        {t(`history:actions.${entry.action}`)}
      </Badge>
      <Text size="sm" fw={600}>
        {entry.user?.name ?? entry.author ?? t('history:someone')}
      </Text>
      <Text size="sm" c="dimmed">
        <bdi>{formatDateTime(entry.created_at)}</bdi>
      </Text>
      {entry.ip && (
        <Text size="sm" c="dimmed">
          {t('history:from', { ip: entry.ip })}
        </Text>
      )}
      {children}
    </Group>
  );
}

export interface HistoryEntryItemProps {
  entry: HistoryEntry;
  fieldLabel?: FieldLabel;
  /** Shows the Restore button on entries with a "before" (not on creates). */
  canRestore: boolean;
  /** After a restore: the record as it now is. */
  onRestored?: (record: Record<string, unknown>) => void;
  /** What the entry changed, named (the workspace-wide screen links to the record). */
  record?: ReactNode;
}

/** One kept change of a record with its field-by-field diff and, where there was a before, Restore. */
export function HistoryEntryItem({ entry, fieldLabel, canRestore, onRestored, record }: HistoryEntryItemProps) {
  const { t } = useTranslation();
  const serverMessage = useServerMessage();
  const detail = useHistoryEntry(entry.id);
  const restore = useRestoreHistoryEntry();
  const restorable = canRestore && entry.action !== 'create' && detail.data?.before != null;

  const confirmRestore = () =>
    modals.openConfirmModal({
      title: t('history:restore.title', { id: entry.id }),
      children: <Text size="sm">{t('history:restore.text')}</Text>,
      labels: { confirm: t('history:restore.confirm'), cancel: t('history:restore.cancel') },
      onConfirm: () =>
        restore.mutate(entry.id, {
          onSuccess: (record) => {
            showNotice({ message: t('history:restore.done') });
            onRestored?.(record);
          },
        }),
    });

  return (
    <Paper withBorder p="sm" radius="md" component="article" aria-label={t('history:entry', { id: entry.id })}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <HistoryEntryHeading entry={entry}>
            {record}
            {entry.restored_from !== null && (
              <Text size="sm" c="dimmed">
                {t('history:restoredFrom', { id: entry.restored_from })}
              </Text>
            )}
          </HistoryEntryHeading>
          {restorable && (
            <Button
              size="compact-sm"
              variant="light"
              leftSection={<IconHistory size={14} aria-hidden />}
              loading={restore.isPending}
              style={{ flexShrink: 0 }}
              onClick={confirmRestore}
            >
              {t('history:restore.button')}
            </Button>
          )}
        </Group>
        {restore.isError && (
          <Alert color="red" variant="light" role="alert">
            {serverMessage(restore.error.message)}
          </Alert>
        )}
        {detail.isPending ? (
          <Loader size="sm" aria-label={t('history:loading')} />
        ) : detail.isError ? (
          <Text size="sm" c="red">
            {serverMessage(detail.error.message)}
          </Text>
        ) : (
          <HistoryChanges entry={detail.data} fieldLabel={fieldLabel} />
        )}
      </Stack>
    </Paper>
  );
}
