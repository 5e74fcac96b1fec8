import { ZReportQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { authorize } from '../api/guard.js';
import { parseInput } from '../api/parse.js';
import { workspaceOf } from '../auth/workspace.js';
import { maskReport, refuseMoneyOrder, seesMoney } from './money.js';
import type { ReportRunner } from './runner.js';

/** §7.5 `GET /api/reports`; §6: tracker/reports/get, and tracker/reports/money for its money figures. */
export function reportRoutes(app: FastifyInstance, reports: ReportRunner): void {
  app.get('/reports', async (request) => {
    const actor = authorize(request, 'tracker', 'reports', 'get');
    const query = parseInput(ZReportQuery, request.query);
    // Issue 19: only the acting workspace's events.
    const scope = { workspaceId: workspaceOf(actor) };
    if (seesMoney(actor)) return reports.run(query, scope);
    // Issue 19: without the money permission, no money figure in the answer nor in its order.
    refuseMoneyOrder(query);
    return maskReport(await reports.run(query, scope));
  });
}
