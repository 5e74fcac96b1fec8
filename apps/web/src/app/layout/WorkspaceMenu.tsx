import { Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconBriefcase, IconCheck, IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useWorkspaceSwitch } from '../../shared/workspace/useWorkspaceSwitch';

/** The workspace the dashboard acts in, and the others to switch to; only for several. */
export function WorkspaceMenu() {
  const { t } = useTranslation();
  const { workspaces, current, switchTo } = useWorkspaceSwitch();
  if (workspaces.length < 2 || !current) return null;

  return (
    <Menu position="bottom-end" width={240} withinPortal>
      <Menu.Target>
        <UnstyledButton
          className="sy-workspace-button sy-topbar-action"
          aria-label={t('topbar.workspace', { name: current.name })}
        >
          <Group gap={6} wrap="nowrap">
            <IconBriefcase size={20} stroke={1.6} aria-hidden />
            <Text size="sm" fw={500} className="sy-workspace-name" truncate>
              {current.name}
            </Text>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('topbar.switchWorkspace')}</Menu.Label>
        {workspaces.map((workspace) => {
          const selected = workspace.id === current.id;
          return (
            <Menu.Item
              key={workspace.id}
              aria-current={selected ? 'true' : undefined}
              onClick={() => switchTo(workspace.id)}
              rightSection={selected ? <IconCheck size={14} aria-hidden /> : null}
            >
              {workspace.name}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}
