import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconSettings, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCurrentUser } from '../../shared/auth/useCurrentUser';
import { useLayoutSettings } from '../settings/useLayoutSettings';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

/** §2.4: the signed-in user's name, with the settings panel and logging out. */
export function UserMenu() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { openPanel } = useLayoutSettings();
  const name = user?.name ?? '';

  return (
    <Menu position="bottom-end" width={200} withinPortal>
      <Menu.Target>
        {/* Named by the user's name, which a phone's width hides visually only (layout.css). */}
        <UnstyledButton
          className="sy-user-button sy-topbar-action"
          aria-label={name ? undefined : t('topbar.userMenu')}
        >
          <Group gap={8} wrap="nowrap">
            <Avatar size={30} radius="xl" color="brand" variant="filled" aria-hidden>
              {initials(name)}
            </Avatar>
            <Text size="sm" fw={500} className="sy-user-name" truncate>
              {name}
            </Text>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user?.email}</Menu.Label>
        <Menu.Item component={Link} to="/profile" leftSection={<IconUserCircle size={16} aria-hidden />}>
          {t('account.profile.menu')}
        </Menu.Item>
        <Menu.Item leftSection={<IconSettings size={16} aria-hidden />} onClick={openPanel}>
          {t('topbar.settings')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item component={Link} to="/logout" color="red" leftSection={<IconLogout size={16} aria-hidden />}>
          {t('topbar.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
