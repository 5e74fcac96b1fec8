// A direct campaign's click token (store/click-tokens.ts): made anew on request and shown once; the
// tracker keeps only its hash. Whoever may change the campaign may make one.
import { type ClickTokenAnswer, VALIDATION_MESSAGES } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { workspaceOf } from '../../auth/workspace.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { authorize } from '../../http/guard.js';
import { replaceClickToken } from '../../store/click-tokens.js';
import type { Database } from '../../store/schema.js';

export function clickTokenRoutes(
  app: FastifyInstance,
  db: Kysely<Database>,
  onChange: (kind: 'tracker-campaigns') => Promise<void>,
): void {
  app.post<{ Params: { id: string } }>(
    '/tracker/campaigns/:id/click-token',
    async (request, reply): Promise<ClickTokenAnswer> => {
      const actor = authorize(request, 'tracker', 'campaign', 'update');
      const workspaceId = workspaceOf(actor);
      const campaign = await db
        .selectFrom('config_records')
        .select(['external_id', 'body', 'status'])
        .where('kind', '=', 'tracker-campaigns')
        .where('workspace_id', '=', workspaceId)
        .where('external_id', '=', String(request.params.id))
        .executeTakeFirst();
      if (!campaign) throw new NotFoundError();
      const body = JSON.parse(campaign.body) as { type?: unknown };
      if (body.type !== 'direct') throw new ValidationError({ type: [VALIDATION_MESSAGES.notDirect] });
      const made = await replaceClickToken(db, workspaceId, campaign.external_id);
      await onChange('tracker-campaigns');
      reply.code(201);
      return made;
    },
  );
}
