// Which built-in monitors are on in the acting workspace: read by whoever may read the workspace, changed
// by whoever may change it. A monitor never set is on.
import { MONITORS, type MonitorSettings, ZMonitorSettings } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { workspaceOf } from '../auth/workspace.js';
import { authorize } from '../http/guard.js';
import { parseInput } from '../http/parse.js';
import type { Database } from '../store/schema.js';
import { type Scope, scopeCondition } from '../store/scope.js';

async function settings(db: Kysely<Database>, scope: Scope): Promise<MonitorSettings> {
  const rows = await db
    .selectFrom('workspace_monitors')
    .select(['monitor', 'enabled'])
    .where(scopeCondition(scope, 'workspace_id'))
    .execute();
  const off = new Set(rows.filter((row) => Number(row.enabled) === 0).map((row) => row.monitor));
  return Object.fromEntries(MONITORS.map((monitor) => [monitor, !off.has(monitor)])) as MonitorSettings;
}

export function monitorRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  app.get('/monitors', async (request) => {
    const actor = authorize(request, 'general', 'workspace', 'get');
    return settings(db, { workspaceId: workspaceOf(actor) });
  });

  app.put('/monitors', async (request) => {
    const actor = authorize(request, 'general', 'workspace', 'update');
    const scope = { workspaceId: workspaceOf(actor) };
    const wanted = parseInput(ZMonitorSettings, request.body);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('workspace_monitors').where(scopeCondition(scope, 'workspace_id')).execute();
      await trx
        .insertInto('workspace_monitors')
        .values(
          MONITORS.map((monitor) => ({ workspace_id: scope.workspaceId, monitor, enabled: wanted[monitor] ? 1 : 0 })),
        )
        .execute();
    });
    return settings(db, scope);
  });
}
