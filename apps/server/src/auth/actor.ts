import { normalizePermissions } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import { parseStringList } from '../store/database.js';
import type { Database } from '../store/schema.js';

/** The signed-in user a request acts as. */
export interface Actor {
  userId: number;
  sessionId: number;
  /** Effective: the union of its roles' permissions and its own, normalized. */
  permissions: string[];
  /** The workspace the request acts in (auth/workspace.ts); null for a user of none. */
  workspaceId: number | null;
  /** Set when the request came with an API token (sessionId is then 0): it acts in its workspace only. */
  token?: { id: number; workspaceId: number };
  /** The address the request came from (history keeps it with each change). */
  ip?: string | null;
  /** Set for changes no person makes (a rule's): history names this author. */
  author?: string;
}

export async function rolePermissions(db: Kysely<Database>, roleIds: readonly number[]): Promise<string[]> {
  if (roleIds.length === 0) return [];
  const roles = await db
    .selectFrom('roles')
    .select('permissions')
    .where('id', 'in', [...roleIds])
    .where('status', '=', 'active')
    .execute();
  return roles.flatMap((role) => parseStringList(role.permissions));
}

/** A user's effective permissions; null when the user does not exist or is deactivated. */
export async function effectivePermissions(db: Kysely<Database>, userId: number): Promise<string[] | null> {
  const user = await db
    .selectFrom('users')
    .select(['permissions', 'active', 'status'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user || user.active === 0 || user.status !== 'active') return null;
  const roleIds = await db.selectFrom('user_roles').select('role_id').where('user_id', '=', userId).execute();
  const fromRoles = await rolePermissions(
    db,
    roleIds.map((row) => row.role_id),
  );
  return normalizePermissions([...fromRoles, ...parseStringList(user.permissions)]);
}
