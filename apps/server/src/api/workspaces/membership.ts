// Who belongs to which workspace, as the services that manage users, invitations and workspaces
// themselves read it. A user reaches the workspaces they belong to; the root permission reaches them all.
// An API token reaches the workspace it was made in, and no other.
import type { Kysely } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { isRoot } from '../../auth/workspace.js';
import type { Database } from '../../store/schema.js';

/** The ids of the workspaces `userId` belongs to, ascending. */
export async function memberWorkspaceIds(db: Kysely<Database>, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('user_workspaces')
    .select('workspace_id')
    .where('user_id', '=', userId)
    .orderBy('workspace_id')
    .execute();
  return rows.map((row) => row.workspace_id);
}

/** The workspaces an actor reaches: null for root (every one), a token's own, else the ones they belong to. */
export async function reachableWorkspaceIds(db: Kysely<Database>, actor: Actor): Promise<Set<number> | null> {
  if (actor.token) return new Set([actor.token.workspaceId]);
  if (isRoot(actor)) return null;
  return new Set(await memberWorkspaceIds(db, actor.userId));
}

/** Whether the actor may act on workspace `workspaceId`: a member of it, or root; a token, its own only. */
export async function reachesWorkspace(db: Kysely<Database>, actor: Actor, workspaceId: number): Promise<boolean> {
  if (actor.token) return actor.token.workspaceId === workspaceId;
  if (isRoot(actor)) return true;
  const row = await db
    .selectFrom('user_workspaces')
    .select('workspace_id')
    .where('user_id', '=', actor.userId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return row !== undefined;
}
