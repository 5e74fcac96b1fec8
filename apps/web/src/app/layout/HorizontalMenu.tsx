import { Button, Group, Menu } from '@mantine/core';
import { visibleMenu } from '@switchyard/domain';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useCurrentUser } from '../../shared/auth/useCurrentUser';
import { menuIcon } from './menuIcons';

/** §2.2 horizontal layout: the same menu as a bar under the top bar, one dropdown per section. */
export function HorizontalMenu() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const sections = visibleMenu(useCurrentUser());

  return (
    <nav aria-label={t('menu.mainMenu')} className="sy-horizontal-menu">
      <Group gap={4} px="md" h="100%" wrap="nowrap">
        {sections.map((section) => {
          if (!section.section || !section.headingKey) {
            return section.entries.map((entry) => {
              const Icon = menuIcon(entry.labelKey);
              return (
                <Button
                  key={entry.route}
                  component={Link}
                  to={entry.route}
                  variant="subtle"
                  className="sy-horizontal-item"
                  data-active={pathname === entry.route || undefined}
                  leftSection={<Icon size={18} stroke={1.6} aria-hidden />}
                >
                  {t(entry.labelKey)}
                </Button>
              );
            });
          }
          if (section.entries.length === 0) return null;
          const active = section.entries.some((entry) => pathname.startsWith(entry.route));
          return (
            <Menu key={section.section} position="bottom-start" offset={4} withinPortal>
              <Menu.Target>
                <Button
                  variant="subtle"
                  className="sy-horizontal-item"
                  data-active={active || undefined}
                  rightSection={<IconChevronDown size={14} aria-hidden />}
                >
                  {t(section.headingKey)}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {section.entries.map((entry) => {
                  const Icon = menuIcon(entry.labelKey);
                  return (
                    <Menu.Item
                      key={entry.route}
                      component={Link}
                      to={entry.route}
                      leftSection={<Icon size={16} stroke={1.6} aria-hidden />}
                    >
                      {t(entry.labelKey)}
                    </Menu.Item>
                  );
                })}
              </Menu.Dropdown>
            </Menu>
          );
        })}
      </Group>
    </nav>
  );
}
