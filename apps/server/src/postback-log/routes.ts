import { ZOutboundPostbackQuery, ZPostbackLogQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { moneyFor } from '../auth/money.js';
import { isRoot, workspaceOf } from '../auth/workspace.js';
import { authorize } from '../http/guard.js';
import { parseInput } from '../http/parse.js';
import type { Database } from '../store/schema.js';
import { PostbackLogService } from './service.js';

/**
 * `GET /api/postback-log` and `GET /api/outbound-postbacks`, read under the reports permission;
 * The acting workspace's rows only, their amounts only with the money permission.
 */
export function postbackLogRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  const log = new PostbackLogService(db);
  app.get('/postback-log', async (request) => {
    const actor = authorize(request, 'tracker', 'reports', 'get');
    const page = await log.incoming(parseInput(ZPostbackLogQuery, request.query), {
      workspaceId: workspaceOf(actor),
      unkeyed: isRoot(actor),
    });
    // Payouts and revenue only for a user allowed to see money.
    return moneyFor(actor, page);
  });
  app.get('/outbound-postbacks', async (request) => {
    const actor = authorize(request, 'tracker', 'reports', 'get');
    const page = await log.outbound(parseInput(ZOutboundPostbackQuery, request.query), {
      workspaceId: workspaceOf(actor),
    });
    // The URL is kept as it was sent to the traffic source; no amount field beside it.
    return moneyFor(actor, page);
  });
}
