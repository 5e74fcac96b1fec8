import { NavLink, Tooltip } from '@mantine/core';
import type { MenuEntry } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { menuIcon } from './menuIcons';
import { useMenuEntryActive } from './useMenuEntryActive';

export type SideMenuVariant = 'full' | 'compact' | 'icon';

interface SideMenuLinkProps {
  entry: MenuEntry;
  variant: SideMenuVariant;
  onNavigate?: () => void;
}

export function SideMenuLink({ entry, variant, onNavigate }: SideMenuLinkProps) {
  const { t } = useTranslation();
  const active = useMenuEntryActive(entry.route);
  const Icon = menuIcon(entry.labelKey);
  const label = t(entry.labelKey);
  const iconOnly = variant === 'icon';

  const link = (
    <NavLink
      component={Link}
      to={entry.route}
      className="sy-navlink"
      data-variant={variant}
      active={active}
      aria-current={active ? 'page' : undefined}
      aria-label={iconOnly ? label : undefined}
      label={iconOnly ? null : label}
      leftSection={<Icon size={iconOnly ? 22 : 18} stroke={1.6} aria-hidden />}
      onClick={onNavigate}
    />
  );
  return iconOnly ? (
    <Tooltip label={label} position="right" withArrow>
      {link}
    </Tooltip>
  ) : (
    link
  );
}
