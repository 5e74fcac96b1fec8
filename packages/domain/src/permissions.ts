// §6: a check passes when the user holds the root, the section, the resource or the action itself.

export const SECTIONS = ['api', 'tracker', 'general', 'instance'] as const;
export type Section = (typeof SECTIONS)[number];

/** The actions of a resource's records. */
export const ACTIONS = ['get', 'create', 'update', 'archive'] as const;

/**
 * Reports have one more action, `money`: seeing cost, revenue, profit, ROI, EPC and payouts.
 * Without it, reports, the dashboard, the postback log and CSV exports leave those figures out.
 */
export const REPORT_ACTIONS = ['get', 'money'] as const;

export type Action = (typeof ACTIONS)[number] | (typeof REPORT_ACTIONS)[number];

/**
 * The settings of the whole instance (currency rates, bot protection, registration and account
 * settings) are no workspace's. Reading and changing them needs `/instance/settings/…`, a section of its
 * own so that holding every workspace section (`/api`, `/tracker`, `/general`) does not grant it. The
 * seeded Administrator role holds the root, which covers it; since nobody grants what they do not hold
 * (`ungrantable`), only an instance administrator can make another.
 */
export const INSTANCE_SETTINGS_ACTIONS = ['get', 'update'] as const;

/** The permission that shows money figures (held by root, `/tracker` and `/tracker/reports` too). */
export const MONEY_PERMISSION = '/tracker/reports/money';

export const ROOT_PERMISSION = '/';

/** Which actions each resource has, per section (§6). Roles are ours: the spec loads them as a lookup. */
export const PERMISSION_CATALOGUE = {
  api: {
    flow: ACTIONS,
    campaign: ACTIONS,
    offer: ACTIONS,
    segments: ACTIONS,
  },
  tracker: {
    flow: ACTIONS,
    campaign: ACTIONS,
    offer: ACTIONS,
    lander: ACTIONS,
    segments: ACTIONS,
    reports: REPORT_ACTIONS,
    /** Rules that watch the report and act on flows and campaigns. */
    rule: ACTIONS,
    /** Importing another tracker's records (`/api/imports`); each record's own rights too. */
    import: ['get', 'create'],
  },
  general: {
    'traffic-source': ACTIONS,
    'affiliate-network': ACTIONS,
    event: ACTIONS,
    'postback-event': ACTIONS,
    /** Conversions imported by hand. */
    conversion: ['create'],
    workspace: ['get', 'create', 'update'],
    /** Host names the tracker answers on, with their certificates. */
    domain: ACTIONS,
    user: ['get', 'create', 'update'],
    role: ['get'],
  },
  instance: {
    settings: INSTANCE_SETTINGS_ACTIONS,
  },
} as const satisfies Record<Section, Record<string, readonly Action[]>>;

export type PermissionResource<S extends Section = Section> = keyof (typeof PERMISSION_CATALOGUE)[S] & string;

export interface PermissionHolder {
  permissions: readonly string[];
}

export function permissionString(section?: string, resource?: string, action?: string): string {
  const parts = [section, resource, action].filter((part): part is string => Boolean(part));
  return `/${parts.join('/')}`;
}

/** The strings, most general first, any one of which grants the check. */
export function grantingPermissions(section: string, resource?: string, action?: string): string[] {
  const granting = [ROOT_PERMISSION, permissionString(section)];
  if (resource) granting.push(permissionString(section, resource));
  if (resource && action) granting.push(permissionString(section, resource, action));
  return granting;
}

export function can(
  user: PermissionHolder | null | undefined,
  section: Section,
  resource?: string,
  action?: Action,
): boolean {
  if (!user) return false;
  const held = new Set(user.permissions);
  return grantingPermissions(section, resource, action).some((permission) => held.has(permission));
}

/** Every permission string a user or role may hold, most general first. */
export function allPermissions(): string[] {
  const all: string[] = [ROOT_PERMISSION];
  for (const section of SECTIONS) {
    all.push(permissionString(section));
    for (const [resource, actions] of Object.entries(PERMISSION_CATALOGUE[section])) {
      all.push(permissionString(section, resource));
      for (const action of actions) all.push(permissionString(section, resource, action));
    }
  }
  return all;
}

const KNOWN_PERMISSIONS = new Set(allPermissions());

export function isKnownPermission(permission: string): boolean {
  return KNOWN_PERMISSIONS.has(permission);
}

/** True when holding `held` implies `wanted`: the same string or one of its ancestors. */
export function covers(held: string, wanted: string): boolean {
  if (held === ROOT_PERMISSION || held === wanted) return true;
  return wanted.startsWith(`${held}/`);
}

/**
 * The permissions among `wanted` that `granter` does not hold; nobody can grant what they do not hold.
 * An empty result means the grant is allowed.
 */
export function ungrantable(granter: PermissionHolder, wanted: readonly string[]): string[] {
  return wanted.filter((permission) => !granter.permissions.some((held) => covers(held, permission)));
}

/** Reduce a set of permission strings to the ones not already implied by another in the set. */
export function normalizePermissions(permissions: readonly string[]): string[] {
  const unique = [...new Set(permissions)];
  return unique
    .filter((permission) => !unique.some((other) => other !== permission && covers(other, permission)))
    .sort();
}
