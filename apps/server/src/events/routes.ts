import { type EventKind, ZEventQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { authorize } from '../api/guard.js';
import { parseInput } from '../api/parse.js';
import { workspaceOf } from '../auth/workspace.js';
import { maskAmounts, seesMoney } from '../reports/money.js';
import type { Database } from '../store/schema.js';
import { EventsService } from './service.js';

/**
 * Issue 20: `GET /api/events/clicks`, `/api/events/leads`, `/api/events/conversions`, read under the
 * reports permission; the acting workspace's events only, their cost, payout and revenue only with the
 * money permission. Static paths: Fastify prefers them to the events resource's `/events/:id`.
 */
export function eventTableRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  const events = new EventsService(db);
  for (const kind of ['clicks', 'leads', 'conversions'] as const satisfies readonly EventKind[]) {
    app.get(`/events/${kind}`, async (request) => {
      const actor = authorize(request, 'tracker', 'reports', 'get');
      const page = await events.list(kind, parseInput(ZEventQuery, request.query), {
        workspaceId: workspaceOf(actor),
      });
      if (seesMoney(actor)) return page;
      return {
        ...page,
        list: page.list.map((entry) => {
          const masked = maskAmounts(entry);
          return 'conversions' in masked && Array.isArray(masked.conversions)
            ? { ...masked, conversions: masked.conversions.map(maskAmounts) }
            : masked;
        }),
      };
    });
  }
}
