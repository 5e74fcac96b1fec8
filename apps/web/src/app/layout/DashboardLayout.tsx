// Zod's settings, which run as Zod's chunk loads (see zodConfig.ts).
import '../zodConfig';
import { ActionIcon, AppShell, Burger, Group, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLayoutSidebarRightExpand } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { useWorkspaceScope } from '../../shared/workspace/useWorkspaceScope';
import { useLayoutSettings } from '../settings/useLayoutSettings';
import { Footer } from './Footer';
import { FullscreenToggle } from './FullscreenToggle';
import { HorizontalMenu } from './HorizontalMenu';
import { LanguageMenu } from './LanguageMenu';
import { Logo } from './Logo';
import { NotificationsMenu } from './NotificationsMenu';
import { SettingsPanel } from './SettingsPanel';
import { SideMenu } from './SideMenu';
import type { SideMenuVariant } from './SideMenuLink';
import { UserMenu } from './UserMenu';
import { WorkspaceMenu } from './WorkspaceMenu';

const HEADER_HEIGHT = 64;
const HORIZONTAL_MENU_HEIGHT = 48;
const SIDEBAR_WIDTH: Record<SideMenuVariant, number> = { full: 250, compact: 180, icon: 72 };

/** §2.2, §2.4: top bar, side (or horizontal) menu, page, footer and the settings panel. */
export function DashboardLayout() {
  const { t } = useTranslation();
  const { settings, openPanel } = useLayoutSettings();
  const [mobileOpened, mobile] = useDisclosure(false);
  const { pathname } = useLocation();
  const workspace = useWorkspaceScope();
  const vertical = settings.layout === 'vertical';
  const variant: SideMenuVariant =
    settings.sidebar === 'compact' ? 'compact' : settings.sidebar === 'icon' ? 'icon' : 'full';

  // The drawer of small screens closes when the page changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to the path only.
  useEffect(() => mobile.close(), [pathname]);

  return (
    <AppShell
      className="sy-shell"
      header={{
        height: vertical ? HEADER_HEIGHT : { base: HEADER_HEIGHT, md: HEADER_HEIGHT + HORIZONTAL_MENU_HEIGHT },
      }}
      navbar={{
        width: vertical ? SIDEBAR_WIDTH[variant] : SIDEBAR_WIDTH.full,
        breakpoint: 'md',
        collapsed: { mobile: !mobileOpened, desktop: !vertical },
      }}
      padding={0}
    >
      <AppShell.Header className="sy-topbar">
        <Group h={HEADER_HEIGHT} px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={mobileOpened}
              onClick={mobile.toggle}
              hiddenFrom="md"
              size="sm"
              aria-label={t('topbar.toggleMenu')}
            />
            <Logo />
          </Group>
          <Group gap={4} wrap="nowrap">
            <WorkspaceMenu />
            <LanguageMenu />
            <FullscreenToggle />
            <NotificationsMenu />
            <UserMenu />
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              className="sy-topbar-action"
              aria-label={t('topbar.settings')}
              onClick={openPanel}
            >
              <IconLayoutSidebarRightExpand size={20} stroke={1.6} />
            </ActionIcon>
          </Group>
        </Group>
        {!vertical && (
          <div className="sy-horizontal-bar" style={{ height: HORIZONTAL_MENU_HEIGHT }}>
            <HorizontalMenu />
          </div>
        )}
      </AppShell.Header>

      {/* In the horizontal layout the side menu is the small screens' drawer only: kept out of wide screens'
          page entirely, not just slid away, so there is one main menu there. */}
      <AppShell.Navbar className={vertical ? 'sy-sidebar' : 'sy-sidebar sy-sidebar-drawer-only'}>
        <ScrollArea type="scroll" className="sy-sidebar-scroll">
          <SideMenu variant={vertical ? variant : 'full'} onNavigate={mobile.close} />
        </ScrollArea>
      </AppShell.Navbar>

      <AppShell.Main className="sy-main">
        {/* Built afresh in another workspace: no screen keeps the state of the one left. */}
        <div className="sy-page" key={workspace ?? 'default'}>
          <Outlet />
        </div>
        <Footer />
      </AppShell.Main>

      <SettingsPanel />
    </AppShell>
  );
}
