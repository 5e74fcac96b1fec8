import { ActionIcon, Indicator, Popover, ScrollArea, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Max height of the list (§2.4). */
const LIST_MAX_HEIGHT_PX = 230;

/**
 * §2.4's notifications dropdown. The template's sample entries are not product behaviour, and nothing
 * produces notifications yet, so the list is honestly empty and the badge stays hidden at zero.
 */
export function NotificationsMenu() {
  const { t } = useTranslation();
  const entries: { id: string; text: string }[] = [];

  return (
    <Popover position="bottom-end" width={320} shadow="md" withinPortal>
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          className="sy-topbar-action"
          aria-label={t('topbar.notifications')}
        >
          <Indicator label={entries.length} size={16} color="red" disabled={entries.length === 0} offset={2}>
            <IconBell size={20} stroke={1.6} />
          </Indicator>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={0}>
        <Text fw={600} px="md" py="sm" className="sy-dropdown-title">
          {t('topbar.notifications')}
        </Text>
        <ScrollArea.Autosize mah={LIST_MAX_HEIGHT_PX}>
          {entries.length === 0 ? (
            <Text c="dimmed" size="sm" px="md" py="lg" ta="center">
              {t('topbar.noNotifications')}
            </Text>
          ) : (
            entries.map((entry) => (
              <Text key={entry.id} size="sm" px="md" py="xs">
                {entry.text}
              </Text>
            ))
          )}
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
