import { type Action, can, type PermissionHolder, type Section } from './permissions.js';
import { RESOURCES, type ResourceName } from './resources/index.js';

export interface MenuEntry {
  /** i18n key of the label. */
  labelKey: string;
  route: string;
  /** Null: always shown (unless `anyOf` says otherwise). */
  permission: { section: Section; resource: string; action: Action } | null;
  /** Shown when the user holds any of these (the history: whoever may read any kind of record). */
  anyOf?: readonly { section: Section; resource: string; action: Action }[];
}

export interface MenuSection {
  /** Null for the entries above the first heading. */
  section: Section | null;
  headingKey: string | null;
  /** §2.3: the heading shows when the user may see any of these permission resources. */
  headingShownFor: readonly string[];
  entries: MenuEntry[];
}

/** The instance's settings have no heading of their own: their screens sit in General. */
const HEADING_SHOWN_FOR: Record<Exclude<Section, 'instance'>, readonly string[]> = {
  api: ['flow', 'campaign', 'offer'],
  tracker: ['flow', 'campaign', 'offer', 'lander'],
  general: ['traffic-source', 'affiliate-network', 'workspace'],
};

/** Screens that are not resources, each placed after the entry of a resource of its section. */
const SCREEN_ENTRIES: readonly { section: Section; after: ResourceName | null; entry: MenuEntry }[] = [
  {
    section: 'tracker',
    after: null,
    entry: {
      labelKey: 'menu.reports',
      route: '/tracker/reports',
      permission: { section: 'tracker', resource: 'reports', action: 'get' },
    },
  },
  {
    // The live view streams what the reports count, so it is read under the same permission.
    section: 'tracker',
    after: null,
    entry: {
      labelKey: 'menu.live',
      route: '/tracker/live',
      permission: { section: 'tracker', resource: 'reports', action: 'get' },
    },
  },
  {
    // Rules that watch the reports and act, beside the reports they read.
    section: 'tracker',
    after: null,
    entry: {
      labelKey: 'menu.rules',
      route: '/tracker/rules',
      permission: { section: 'tracker', resource: 'rule', action: 'get' },
    },
  },
  {
    // Importing another tracker's campaigns and what they use.
    section: 'tracker',
    after: null,
    entry: {
      labelKey: 'menu.imports',
      route: '/tracker/imports',
      permission: { section: 'tracker', resource: 'import', action: 'create' },
    },
  },
  {
    // The rates conversions are converted by: the instance's, not a workspace's.
    section: 'general',
    after: 'workspaces',
    entry: {
      labelKey: 'menu.currency-rates',
      route: '/admin/currency-rates',
      permission: { section: 'instance', resource: 'settings', action: 'get' },
    },
  },
  {
    // The server-wide bot protection settings, for the instance's administrators.
    section: 'general',
    after: 'users',
    entry: {
      labelKey: 'menu.bot-protection',
      route: '/admin/bot-protection',
      permission: { section: 'instance', resource: 'settings', action: 'get' },
    },
  },
  {
    // Copies of the SQLite database, for the instance's administrators.
    section: 'general',
    after: 'users',
    entry: {
      labelKey: 'menu.backups',
      route: '/admin/backups',
      permission: { section: 'instance', resource: 'settings', action: 'update' },
    },
  },
  {
    // The workspace's change history, for whoever may read some kind of record (the API shows
    // each reader the entries of what they may read).
    section: 'general',
    after: null,
    entry: {
      labelKey: 'menu.history',
      route: '/admin/history',
      permission: null,
      anyOf: RESOURCES.map((resource) => ({ ...resource.permission, action: 'get' as const })),
    },
  },
];

/** A section's resource entries in registry order, each followed by the screens placed after it. */
function sectionEntries(section: Section): MenuEntry[] {
  const screens = SCREEN_ENTRIES.filter((screen) => screen.section === section);
  const after = (name: ResourceName | null) =>
    screens.filter((screen) => screen.after === name).map((screen) => screen.entry);
  return [
    ...RESOURCES.filter((resource) => resource.menuSection === section && resource.route).flatMap((resource) => [
      {
        labelKey: `menu.${resource.name satisfies ResourceName}`,
        route: resource.route as string,
        permission: { ...resource.permission, action: 'get' as const },
      },
      ...after(resource.name),
    ]),
    ...after(null),
  ];
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
    entries: sectionEntries(section),
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
        (!entry.permission ||
          can(user, entry.permission.section, entry.permission.resource, entry.permission.action)) &&
        (!entry.anyOf || entry.anyOf.some((need) => can(user, need.section, need.resource, need.action))),
    ),
  })).filter((menuSection) => menuSection.entries.length > 0 || menuSection.showHeading);
}
