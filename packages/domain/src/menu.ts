import { type Action, can, type PermissionHolder, type Section } from './permissions.js';
import { RESOURCES, type ResourceName } from './resources/index.js';

export interface MenuEntry {
  /** i18n key of the label. */
  labelKey: string;
  route: string;
  /** Null: always shown. */
  permission: { section: Section; resource: string; action: Action } | null;
}

export interface MenuSection {
  /** Null for the entries above the first heading. */
  section: Section | null;
  headingKey: string | null;
  /** §2.3: the heading shows when the user may see any of these permission resources. */
  headingShownFor: readonly string[];
  entries: MenuEntry[];
}

const HEADING_SHOWN_FOR: Record<Section, readonly string[]> = {
  api: ['flow', 'campaign', 'offer'],
  tracker: ['flow', 'campaign', 'offer', 'lander'],
  general: ['traffic-source', 'affiliate-network', 'workspace'],
};

function resourceEntries(section: Section): MenuEntry[] {
  return RESOURCES.filter((resource) => resource.menuSection === section && resource.route).map((resource) => ({
    labelKey: `menu.${resource.name satisfies ResourceName}`,
    route: resource.route as string,
    permission: { ...resource.permission, action: 'get' as const },
  }));
}

/** The side menu of §2.3, derived from the resource registry. */
export const MENU: readonly MenuSection[] = [
  {
    section: null,
    headingKey: null,
    headingShownFor: [],
    entries: [{ labelKey: 'menu.dashboard', route: '/admin', permission: null }],
  },
  ...(['api', 'tracker', 'general'] as const).map((section) => ({
    section,
    headingKey: `menu.sections.${section}`,
    headingShownFor: HEADING_SHOWN_FOR[section],
    entries: [
      ...resourceEntries(section),
      ...(section === 'tracker'
        ? [
            {
              labelKey: 'menu.reports',
              route: '/tracker/reports',
              permission: { section: 'tracker' as const, resource: 'reports', action: 'get' as const },
            },
          ]
        : []),
    ],
  })),
];

export interface VisibleMenuSection {
  section: Section | null;
  headingKey: string | null;
  showHeading: boolean;
  entries: MenuEntry[];
}

/** What one user sees of the menu: entries gated by `can()`, headings by the rule of §2.3. */
export function visibleMenu(user: PermissionHolder | null): VisibleMenuSection[] {
  return MENU.map((menuSection) => ({
    section: menuSection.section,
    headingKey: menuSection.headingKey,
    showHeading:
      menuSection.section !== null &&
      menuSection.headingShownFor.some((resource) => can(user, menuSection.section as Section, resource, 'get')),
    entries: menuSection.entries.filter(
      (entry) =>
        !entry.permission || can(user, entry.permission.section, entry.permission.resource, entry.permission.action),
    ),
  })).filter((menuSection) => menuSection.entries.length > 0 || menuSection.showHeading);
}
