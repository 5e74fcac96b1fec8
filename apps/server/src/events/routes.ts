import { type EventKind, ZEventQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { moneyFor } from '../auth/money.js';
import { workspaceOf } from '../auth/workspace.js';
import { authorize } from '../http/guard.js';
import { parseInput } from '../http/parse.js';
import type { Database } from '../store/schema.js';
import { EventsService } from './service.js';

/**
 * `GET /api/events/clicks`, `/api/events/leads`, `/api/events/conversions`, read under the
 * reports permission; the acting workspace's events only, their cost, payout and revenue (and the amount in
 * a conversion's raw postback) only with the money permission. The dashboard's CSV export reads these pages. Static paths: Fastify prefers them to the events resource's `/events/:id`.
 */
export function eventTableRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  const events = new EventsService(db);
  for (const kind of ['clicks', 'leads', 'conversions'] as const satisfies readonly EventKind[]) {
    app.get(`/events/${kind}`, async (request) => {
      const actor = authorize(request, 'tracker', 'reports', 'get');
      const page = await events.list(kind, parseInput(ZEventQuery, request.query), {
        workspaceId: workspaceOf(actor),
      });
      return moneyFor(actor, page);
    });
  }
}
