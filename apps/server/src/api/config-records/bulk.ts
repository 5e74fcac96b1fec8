// `POST /api/{resource}/bulk` `{ action, ids }`: each id changed through the service, permission check
// and history a change of one record goes through, and answered on its own: one refused id does not
// stop the others, and each says what a change of it alone would have answered.
import { bulkActionsOf, type ResourceDefinition, type TBulkAnswer, ZBulkRequest } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { isRoot } from '../../auth/workspace.js';
import { ApiError, ForbiddenError, ValidationError } from '../../errors.js';
import { authorize } from '../../http/guard.js';
import { parseInput } from '../../http/parse.js';
import { parseId } from '../../http/resource-routes.js';
import type { Database } from '../../store/schema.js';
import type { ConfigRecordsService } from './service.js';

/** The permission each action needs, as its single-record route does. */
const ACTION_PERMISSION = {
  enable: 'update',
  pause: 'update',
  archive: 'archive',
  restore: 'archive',
  move: 'update',
} as const;

/** Whether the actor may act in `workspaceId`: a member (a session's root reaches every workspace). */
async function reaches(db: Kysely<Database>, actor: Actor, workspaceId: number): Promise<boolean> {
  if (actor.token) return actor.token.workspaceId === workspaceId;
  const found = isRoot(actor)
    ? await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).executeTakeFirst()
    : await db
        .selectFrom('user_workspaces')
        .select('workspace_id as id')
        .where('user_id', '=', actor.userId)
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
  return found !== undefined;
}

export function bulkRoute(
  app: FastifyInstance,
  db: Kysely<Database>,
  definition: ResourceDefinition,
  service: ConfigRecordsService,
): void {
  const { section, resource } = definition.permission;
  const allowed = new Set(bulkActionsOf(definition));

  app.post(`/${definition.apiPath}/bulk`, async (request): Promise<TBulkAnswer> => {
    const body = parseInput(ZBulkRequest, request.body);
    if (!allowed.has(body.action)) {
      throw new ValidationError({
        action: [`${definition.name} cannot be ${body.action}d; use ${[...allowed].join(', ')}.`],
      });
    }
    const actor = authorize(request, section, resource, ACTION_PERMISSION[body.action]);
    if (body.action === 'move') {
      // Moving puts records into the other workspace: the right to create them there too.
      authorize(request, section, resource, 'create');
      if (!(await reaches(db, actor, body.workspace!))) {
        throw new ForbiddenError({ workspace: ['You do not belong to this workspace.'] });
      }
    }
    const results: TBulkAnswer['results'] = [];
    for (const id of [...new Set(body.ids)]) {
      try {
        const recordId = parseId(definition, id);
        if (body.action === 'enable' || body.action === 'pause') {
          await service.setEnabled(recordId, actor, body.action === 'enable');
        } else if (body.action === 'archive') {
          await service.archive(recordId, actor, { force: body.force });
        } else if (body.action === 'restore') {
          await service.restore(recordId, actor);
        } else {
          await service.moveTo(recordId, actor, body.workspace!);
        }
        results.push({ id, ok: true, status: 200 });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        results.push({
          id,
          ok: false,
          status: error.statusCode,
          message: error.message,
          ...(error.errors ? { errors: error.errors } : {}),
        });
      }
    }
    return { results };
  });
}
