import { ActionIcon, Anchor, Group, Indicator, Popover, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { can } from '@switchyard/domain';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useNotificationActions, useNotifications } from '../../api/useAlerts';
import { formatDateTime } from '../../components/list/formatDateTime';
import { useCurrentUser } from '../../shared/auth/useCurrentUser';

/** Max height of the list (§2.4). */
const LIST_MAX_HEIGHT_PX = 230;
/** The newest shown in the dropdown; the screen lists them all. */
const SHOWN = 8;

/**
 * §2.4's notifications dropdown: the acting user's notifications from the monitors and their rules, the
 * badge counting the unread ones. Opening one marks it read.
 */
export function NotificationsMenu() {
  const { t, i18n } = useTranslation();
  const [opened, setOpened] = useState(false);
  const navigate = useNavigate();
  const user = useCurrentUser();
  const notifications = useNotifications();
  const { read, readAll } = useNotificationActions();
  const entries = notifications.data?.list.slice(0, SHOWN) ?? [];
  const unread = notifications.data?.unread ?? 0;

  return (
    <Popover position="bottom-end" width={340} shadow="md" withinPortal opened={opened} onChange={setOpened}>
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          className="sy-topbar-action"
          // Not "(n)": a parenthesised count is left out of the name by label-in-name checks, so the badge's
          // visible number would not be part of it.
          aria-label={unread > 0 ? `${t('topbar.notifications')}: ${unread}` : t('topbar.notifications')}
          onClick={() => setOpened((open) => !open)}
          data-testid="notifications-bell"
        >
          <Indicator label={unread} size={16} color="red" disabled={unread === 0} offset={2}>
            <IconBell size={20} stroke={1.6} />
          </Indicator>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={0}>
        <Group justify="space-between" px="md" py="sm" className="sy-dropdown-title">
          <Text fw={600}>{t('topbar.notifications')}</Text>
          {unread > 0 && (
            <Anchor component="button" size="xs" onClick={() => readAll.mutate()}>
              {t('alerts:bell.markAll')}
            </Anchor>
          )}
        </Group>
        <ScrollArea.Autosize mah={LIST_MAX_HEIGHT_PX}>
          {entries.length === 0 ? (
            <Text c="dimmed" size="sm" px="md" py="lg" ta="center">
              {t('topbar.noNotifications')}
            </Text>
          ) : (
            entries.map((entry) => (
              <UnstyledButton
                key={entry.id}
                display="block"
                w="100%"
                px="md"
                py="xs"
                data-testid="notification"
                onClick={() => {
                  if (!entry.read) read.mutate(entry.id);
                  setOpened(false);
                  navigate(entry.link ?? '/notifications');
                }}
              >
                <Stack gap={0}>
                  <Text size="sm" fw={entry.read ? 400 : 600}>
                    {entry.title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t(`alerts:kinds.${entry.kind}`)} · {formatDateTime(entry.created_at, i18n.language)}
                  </Text>
                </Stack>
              </UnstyledButton>
            ))
          )}
        </ScrollArea.Autosize>
        <Group justify="space-between" px="md" py="xs">
          <Anchor component={Link} to="/notifications" size="sm" onClick={() => setOpened(false)}>
            {t('alerts:bell.seeAll')}
          </Anchor>
          <Anchor component={Link} to="/notifications/channels" size="sm" onClick={() => setOpened(false)}>
            {t('alerts:bell.channels')}
          </Anchor>
          {can(user, 'tracker', 'rule', 'get') && (
            <Anchor component={Link} to="/tracker/rules" size="sm" onClick={() => setOpened(false)}>
              {t('alerts:bell.rules')}
            </Anchor>
          )}
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
