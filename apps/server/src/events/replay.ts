// Issue 25: `GET /api/events/clicks/{click_id}/replay`, a stored click's context routed again against
// today's configuration (simulate), beside what happened when it was routed. Read as the event tables
// are (the reports permission), and only for a click of the acting workspace's campaigns.
import type { ClickReplay } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { authorize } from '../api/guard.js';
import { workspaceOf } from '../auth/workspace.js';
import { NotFoundError } from '../errors.js';
import type { Database } from '../store/schema.js';
import type { TrafficEngine } from '../traffic/engine.js';

export function eventReplayRoutes(app: FastifyInstance, db: Kysely<Database>, engine: TrafficEngine): void {
  app.get<{ Params: { click_id: string } }>(
    '/events/clicks/:click_id/replay',
    async (request): Promise<ClickReplay> => {
      const actor = authorize(request, 'tracker', 'reports', 'get');
      const workspaceId = workspaceOf(actor);
      // Asked of the stored records, not the live routing: a click of an archived campaign is still shown.
      const inWorkspace = async (campaignExternalId: string) =>
        (await db
          .selectFrom('config_records')
          .select('id')
          .where('kind', '=', 'tracker-campaigns')
          .where('external_id', '=', campaignExternalId)
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirst()) !== undefined;
      const answer = await engine.replayClick(request.params.click_id, workspaceId, inWorkspace);
      // Another workspace's click is not found, as an unknown one.
      if (!answer) throw new NotFoundError();
      return answer;
    },
  );
}
