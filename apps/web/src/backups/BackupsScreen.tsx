import { Button, Group, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconDatabaseExport, IconDownload, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { downloadBackup, useBackupActions, useBackups } from '../api/useBackups';
import { ScreenHeader } from '../components/breadcrumbs/ScreenHeader';
import { ErrorAlert, QueryStatus } from '../components/feedback/QueryStatus';
import { formatBytes } from '../components/list/formatBytes';
import { formatDateTime } from '../components/list/formatDateTime';
import { errorText } from '../shared/errors/errorText';

/**
 * /admin/backups: copies of the SQLite database made while the server runs, kept in the data
 * directory, for the instance's administrators. On PostgreSQL the API says to use pg_dump.
 */
export function BackupsScreen() {
  const { t, i18n } = useTranslation('resources');
  const backups = useBackups();
  const { make, remove } = useBackupActions();

  const confirmDelete = (name: string) =>
    modals.openConfirmModal({
      title: t('backups.delete.title'),
      children: <Text size="sm">{t('backups.delete.text', { name })}</Text>,
      labels: { confirm: t('backups.delete.confirm'), cancel: t('confirm.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(name),
    });

  const download = (name: string) =>
    downloadBackup(name).catch((error: unknown) => notifications.show({ color: 'red', message: errorText(t, error) }));

  return (
    <Stack gap="md">
      <ScreenHeader
        title={t('backups.title')}
        intro={t('backups.intro')}
        actions={
          <Button
            leftSection={<IconDatabaseExport size={18} aria-hidden />}
            loading={make.isPending}
            onClick={() => make.mutate()}
          >
            {t('backups.make')}
          </Button>
        }
      />
      {(make.error || remove.error) && <ErrorAlert>{errorText(t, make.error ?? remove.error)}</ErrorAlert>}
      <QueryStatus query={backups} loadingLabel={t('list.loading')}>
        {({ list }) =>
          list.length === 0 ? (
            <Paper withBorder p="xl" radius="md">
              <Text ta="center" c="dimmed">
                {t('backups.empty')}
              </Text>
            </Paper>
          ) : (
            <Paper withBorder radius="md">
              <Table.ScrollContainer minWidth={640}>
                <Table verticalSpacing="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('backups.columns.name')}</Table.Th>
                      <Table.Th>{t('backups.columns.created')}</Table.Th>
                      <Table.Th>{t('backups.columns.size')}</Table.Th>
                      <Table.Th>
                        <VisuallyHidden>{t('backups.columns.actions')}</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {list.map((backup) => (
                      <Table.Tr key={backup.name}>
                        <Table.Td>
                          <Text size="sm" ff="monospace" dir="ltr">
                            {backup.name}
                          </Text>
                        </Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>
                          {formatDateTime(backup.created_at, i18n.language)}
                        </Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatBytes(backup.bytes, i18n.language)}</Table.Td>
                        <Table.Td>
                          <Group gap="xs" justify="flex-end" wrap="nowrap">
                            <Button
                              variant="light"
                              size="compact-sm"
                              leftSection={<IconDownload size={16} aria-hidden />}
                              onClick={() => void download(backup.name)}
                            >
                              {t('backups.download')}
                            </Button>
                            <Button
                              variant="subtle"
                              color="red"
                              size="compact-sm"
                              leftSection={<IconTrash size={16} aria-hidden />}
                              onClick={() => confirmDelete(backup.name)}
                            >
                              {t('backups.delete.button')}
                            </Button>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Paper>
          )
        }
      </QueryStatus>
    </Stack>
  );
}
