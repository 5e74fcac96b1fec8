import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useNotificationActions, useNotifications } from '../api/useAlerts';
import { ScreenBreadcrumbs } from '../components/breadcrumbs/ScreenBreadcrumbs';
import { formatDateTime } from '../components/list/formatDateTime';

/** /notifications: every notification of the acting user in the acting workspace, newest first. */
export function NotificationsScreen() {
  const { t, i18n } = useTranslation('alerts');
  const notifications = useNotifications();
  const { read, readAll } = useNotificationActions();
  const list = notifications.data?.list ?? [];
  return (
    <Stack gap="md">
      <ScreenBreadcrumbs title={t('list.title')} />
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1} size="h2">
            {t('list.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('list.intro')}
          </Text>
        </div>
        <Group>
          <Button variant="default" component={Link} to="/notifications/channels">
            {t('bell.channels')}
          </Button>
          <Button variant="light" onClick={() => readAll.mutate()} disabled={!notifications.data?.unread}>
            {t('bell.markAll')}
          </Button>
        </Group>
      </Group>
      {notifications.isSuccess && list.length === 0 && <Text c="dimmed">{t('bell.empty')}</Text>}
      {list.map((entry) => (
        <Paper key={entry.id} withBorder p="sm" data-testid="notification-row">
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <Stack gap={4} style={{ minInlineSize: 0 }}>
              <Group gap="xs">
                <Badge variant="light" color={entry.kind === 'test' ? 'gray' : 'orange'}>
                  {t(`kinds.${entry.kind}`)}
                </Badge>
                {!entry.read && (
                  <Badge variant="filled" color="blue">
                    {t('bell.unread')}
                  </Badge>
                )}
                <Text size="xs" c="dimmed">
                  {formatDateTime(entry.created_at, i18n.language)}
                </Text>
              </Group>
              <Text fw={600}>{entry.title}</Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {entry.body}
              </Text>
            </Stack>
            <Group gap="xs" wrap="nowrap">
              {entry.link && (
                <Button size="xs" variant="subtle" component={Link} to={entry.link}>
                  {t('list.open')}
                </Button>
              )}
              {!entry.read && (
                <Button size="xs" variant="subtle" onClick={() => read.mutate(entry.id)}>
                  {t('list.read')}
                </Button>
              )}
            </Group>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
