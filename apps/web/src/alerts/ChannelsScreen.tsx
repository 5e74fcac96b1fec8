import { Badge, Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { Channel } from '@switchyard/domain';
import { IconPlus, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useChannelActions, useChannels, useDeliveries } from '../api/useAlerts';
import { ScreenHeader } from '../components/breadcrumbs/ScreenHeader';
import { formatDateTime } from '../components/list/formatDateTime';
import { ChannelForm } from './ChannelForm';

const STATUS_COLORS = { sent: 'teal', retrying: 'yellow', failed: 'red' } as const;

/** /notifications/channels: the acting user's channels, each with a test button and its delivery log. */
export function ChannelsScreen() {
  const { t } = useTranslation('alerts');
  const channels = useChannels();
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const list = channels.data?.list ?? [];
  return (
    <Stack gap="md">
      <ScreenHeader
        title={t('channels.title')}
        intro={t('channels.intro')}
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            {t('channels.add')}
          </Button>
        }
      />
      {channels.isSuccess && list.length === 0 && <Text c="dimmed">{t('channels.empty')}</Text>}
      {list.map((channel) => (
        <ChannelCard key={channel.id} channel={channel} onEdit={() => setEditing(channel)} />
      ))}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('channels.add') : t('channels.edit')}
      >
        {editing !== null && (
          <ChannelForm channel={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        )}
      </Modal>
    </Stack>
  );
}

function ChannelCard({ channel, onEdit }: { channel: Channel; onEdit: () => void }) {
  const { t, i18n } = useTranslation('alerts');
  const { test, remove } = useChannelActions();
  const deliveries = useDeliveries(channel.id);
  const target = channel.chat_id ?? channel.to ?? channel.url ?? (channel.has_secret ? t('channels.secretKept') : '');
  const sendTest = () =>
    test.mutate(channel.id, {
      onSuccess: (answer) =>
        notifications.show(
          answer.delivered
            ? { color: 'teal', message: t('channels.tested') }
            : { color: 'red', message: t('channels.testFailed', { error: answer.error ?? '' }) },
        ),
    });
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('channels.delete'),
      children: <Text size="sm">{t('channels.deleteConfirm', { name: channel.name })}</Text>,
      labels: { confirm: t('channels.delete'), cancel: t('channels.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(channel.id),
    });
  return (
    <Paper withBorder p="md" data-testid="channel">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2} style={{ minInlineSize: 0 }}>
            <Group gap="xs">
              <Text fw={600}>{channel.name}</Text>
              <Badge variant="light">{t(`channels.kinds.${channel.kind}`)}</Badge>
              {!channel.enabled && (
                <Badge variant="light" color="gray">
                  {t('channels.disabled')}
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {target}
            </Text>
            <Text size="sm">
              {t('channels.events')}:{' '}
              {channel.events.length === 0
                ? t('channels.allEvents')
                : channel.events.map((kind) => t(`kinds.${kind}`)).join(', ')}
            </Text>
          </Stack>
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              leftSection={<IconSend size={14} aria-hidden />}
              loading={test.isPending}
              onClick={sendTest}
            >
              {t('channels.test')}
            </Button>
            <Button size="xs" variant="default" onClick={onEdit}>
              {t('channels.edit')}
            </Button>
            <Button size="xs" variant="subtle" color="red" onClick={confirmDelete}>
              {t('channels.delete')}
            </Button>
          </Group>
        </Group>
        <Text size="sm" fw={600}>
          {t('channels.deliveries')}
        </Text>
        {(deliveries.data?.list.length ?? 0) === 0 ? (
          <Text size="sm" c="dimmed">
            {t('channels.noDeliveries')}
          </Text>
        ) : (
          <Stack gap={6}>
            {deliveries.data?.list.slice(0, 5).map((delivery) => (
              <div key={delivery.id} data-testid="delivery">
                <Group gap="xs">
                  <Badge variant="light" color={STATUS_COLORS[delivery.status]}>
                    {t(`channels.status.${delivery.status}`)}
                  </Badge>
                  <Text size="sm">{formatDateTime(delivery.updated_at, i18n.language)}</Text>
                  <Text size="sm" c="dimmed">
                    {t('channels.attempts', { count: delivery.attempts })}
                  </Text>
                </Group>
                {delivery.error && (
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {delivery.error}
                  </Text>
                )}
              </div>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
