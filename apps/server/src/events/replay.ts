// `GET /api/events/clicks/{click_id}/replay` and `/api/events/leads/{lead_id}/replay`, a stored
// event's context routed again against today's configuration (simulate), beside what happened when it
// was routed. Read as the event tables are (the reports permission), and only for an event of the acting
// workspace's campaigns. With the records it names and its conversions, for the click inspector; the
// whole answer without money (payouts, raw amounts) for who may not see it.
import type { ClickReplay, LeadReplay } from '@switchyard/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { moneyFor } from '../auth/money.js';
import { workspaceOf } from '../auth/workspace.js';
import { NotFoundError } from '../errors.js';
import { authorize } from '../http/guard.js';
import type { Database } from '../store/schema.js';
import type { TrafficEngine } from '../traffic/engine.js';
import { inspectClick, inspectLead } from './inspected.js';

export function eventReplayRoutes(app: FastifyInstance, db: Kysely<Database>, engine: TrafficEngine): void {
  /** The acting workspace, and whether a campaign of `kind` is one of its records. */
  const scope = (request: FastifyRequest, kind: 'tracker-campaigns' | 'campaigns') => {
    const actor = authorize(request, 'tracker', 'reports', 'get');
    const workspaceId = workspaceOf(actor);
    // Asked of the stored records, not the live routing: an event of an archived campaign is still shown.
    const inWorkspace = async (campaignExternalId: string) =>
      (await db
        .selectFrom('config_records')
        .select('id')
        .where('kind', '=', kind)
        .where('external_id', '=', campaignExternalId)
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst()) !== undefined;
    return { actor, workspaceId, inWorkspace };
  };

  app.get<{ Params: { click_id: string } }>(
    '/events/clicks/:click_id/replay',
    async (request): Promise<ClickReplay> => {
      const { actor, workspaceId, inWorkspace } = scope(request, 'tracker-campaigns');
      const answer = await engine.replayClick(request.params.click_id, workspaceId, inWorkspace);
      // Another workspace's click is not found, as an unknown one.
      if (!answer) throw new NotFoundError();
      return moneyFor(actor, await inspectClick(db, answer, { workspaceId }));
    },
  );

  app.get<{ Params: { lead_id: string } }>('/events/leads/:lead_id/replay', async (request): Promise<LeadReplay> => {
    const { actor, workspaceId, inWorkspace } = scope(request, 'campaigns');
    const answer = await engine.replayLead(request.params.lead_id, workspaceId, inWorkspace);
    if (!answer) throw new NotFoundError();
    return moneyFor(actor, await inspectLead(db, answer, { workspaceId }));
  });
}
