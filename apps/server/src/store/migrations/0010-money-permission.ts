// Migration 0010_money_permission, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { Kysely, Migration } from 'kysely';

// 0010: money figures need `/tracker/reports/money`, which administrators hold by default. A
// new database seeds the Administrator role with the root, which covers it; an existing one may have
// narrowed that role, so each role named like the seeded administrator role that does not already hold
// the permission (itself or a broader one) gets it. Other roles are left as they were: who else sees
// money is the administrators' choice.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** The permission to see money figures, and the root, as they were. */
const MONEY_PERMISSION = '/tracker/reports/money';
const ROOT_PERMISSION = '/';

/** Whether holding `held` grants `wanted` (the root, the permission itself, or one above it). */
function covers(held: string, wanted: string): boolean {
  if (held === ROOT_PERMISSION || held === wanted) return true;
  return wanted.startsWith(`${held}/`);
}

/** The seeded administrator role's name when this migration was written (a migration stays as written). */
const ADMINISTRATOR_ROLE = 'Administrator';

function parsePermissions(text: unknown): string[] {
  try {
    const value: unknown = JSON.parse(String(text ?? '[]'));
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/** True for the seeded administrator role's name, however its case or spacing was edited. */
export function isAdministratorRoleName(name: string): boolean {
  return name.trim().toLowerCase() === ADMINISTRATOR_ROLE.toLowerCase();
}

/** The role's permissions with the money permission, or null when it already holds it. */
export function withMoneyPermission(permissions: readonly string[]): string[] | null {
  if (permissions.some((held) => covers(held, MONEY_PERMISSION))) return null;
  return [...permissions, MONEY_PERMISSION];
}

export function moneyPermissionMigration(): Migration {
  return {
    async up(db: AnyDb) {
      const roles: { id: number; name: string; permissions: string }[] = await db
        .selectFrom('roles')
        .select(['id', 'name', 'permissions'])
        .execute();
      for (const role of roles) {
        if (!isAdministratorRoleName(role.name)) continue;
        const granted = withMoneyPermission(parsePermissions(role.permissions));
        if (!granted) continue;
        await db
          .updateTable('roles')
          .set({ permissions: JSON.stringify(granted) })
          .where('id', '=', role.id)
          .execute();
      }
    },
  };
}
