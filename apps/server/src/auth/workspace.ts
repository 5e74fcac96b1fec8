// Every /api request acts in one workspace: the one the `X-Workspace` header names, else the
// user's first. A user who does not belong to the named workspace is refused, unless they hold the root
// permission, which reaches every workspace. An API token acts in its own workspace only, whatever
// its permissions: root's reach is a session's.
import { ROOT_PERMISSION } from '@switchyard/domain';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { ForbiddenError, ValidationError } from '../errors.js';
import type { Database } from '../store/schema.js';
import type { Actor } from './actor.js';

export const WORKSPACE_HEADER = 'x-workspace';

export const TOKEN_OWN_WORKSPACE = 'This API token acts in its own workspace only.';

/**
 * Whether the actor reaches every workspace: a session holding the root permission. A token never does (issue
 * 40): with `/` it may do anything, but in the workspace it was made in only.
 */
export function isRoot(actor: Pick<Actor, 'permissions' | 'token'>): boolean {
  return actor.token === undefined && actor.permissions.includes(ROOT_PERMISSION);
}

/** The workspace a request acts in, or null for a user who belongs to none (and is not root). */
export async function actingWorkspace(
  db: Kysely<Database>,
  actor: Pick<Actor, 'userId' | 'permissions' | 'token'>,
  request: FastifyRequest,
): Promise<number | null> {
  const header = request.headers[WORKSPACE_HEADER];
  const named = Array.isArray(header) ? header[0] : header;
  // An API token acts in the workspace it was made in, while its user still belongs there.
  if (actor.token) {
    const own = actor.token.workspaceId;
    if (named !== undefined && named.trim() !== '' && Number(named) !== own) {
      throw new ForbiddenError(undefined, TOKEN_OWN_WORKSPACE);
    }
    // Root's token may be made in a workspace its user reaches without belonging to it.
    const member =
      actor.permissions.includes(ROOT_PERMISSION) ||
      (await db
        .selectFrom('user_workspaces')
        .select('workspace_id')
        .where('user_id', '=', actor.userId)
        .where('workspace_id', '=', own)
        .executeTakeFirst());
    if (!member) throw new ForbiddenError(undefined, 'You do not belong to this workspace.');
    return own;
  }
  if (named !== undefined && named.trim() !== '') {
    const id = Number(named);
    if (!Number.isSafeInteger(id) || id <= 0) {
      throw new ValidationError({ 'X-Workspace': ['Name a workspace by its id.'] });
    }
    const allowed = isRoot(actor)
      ? await db.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst()
      : await db
          .selectFrom('user_workspaces')
          .select('workspace_id as id')
          .where('user_id', '=', actor.userId)
          .where('workspace_id', '=', id)
          .executeTakeFirst();
    if (!allowed) throw new ForbiddenError(undefined, 'You do not belong to this workspace.');
    return id;
  }
  const own = await db
    .selectFrom('user_workspaces')
    .innerJoin('workspaces', 'workspaces.id', 'user_workspaces.workspace_id')
    .select('workspaces.id')
    .where('user_workspaces.user_id', '=', actor.userId)
    .where('workspaces.status', '=', 'active')
    .orderBy('workspaces.id')
    .executeTakeFirst();
  if (own) return own.id;
  if (!isRoot(actor)) return null;
  const first = await db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirst();
  return first?.id ?? null;
}

/** The acting workspace of a request that reads or writes workspace data. */
export function workspaceOf(actor: Actor): number {
  if (actor.workspaceId === null) throw new ForbiddenError(undefined, 'You belong to no workspace.');
  return actor.workspaceId;
}
