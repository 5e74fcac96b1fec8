import { ZReportQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { refuseMoneyOrder, seesMoney, withoutMoney } from '../auth/money.js';
import { workspaceOf } from '../auth/workspace.js';
import { ValidationError } from '../errors.js';
import { authorize } from '../http/guard.js';
import { parseInput } from '../http/parse.js';
import type { Database } from '../store/schema.js';
import { customMetricsOf, definitionsOf } from './custom-metrics.js';
import type { ReportRunner } from './runner.js';
import { varLabels } from './var-labels.js';

/** §7.5 `GET /api/reports`; §6: tracker/reports/get, and tracker/reports/money for its money figures. */
export function reportRoutes(app: FastifyInstance, reports: ReportRunner, db: Kysely<Database>): void {
  app.get('/reports', async (request) => {
    const actor = authorize(request, 'tracker', 'reports', 'get');
    const query = parseInput(ZReportQuery, request.query);
    const workspaceId = workspaceOf(actor);
    // The workspace's custom metrics, computed from each row's figures.
    const metrics = await customMetricsOf(db, workspaceId);
    if (query.order_by?.startsWith('cm_') && !metrics.some((metric) => metric.key === query.order_by)) {
      throw new ValidationError({ order_by: [`No custom metric is named ${query.order_by}.`] });
    }
    // Only the acting workspace's events.
    const scope = { workspaceId, metrics: definitionsOf(metrics) };
    // The engine's meta says which source answered (source, source_reason); the vars' names join it.
    const meta = async () => ({ labels: await varLabels(db, workspaceId, query.filters) });
    if (seesMoney(actor)) {
      const [answer, about] = await Promise.all([reports.run(query, scope), meta()]);
      return { ...answer, meta: { ...answer.meta, ...about } };
    }
    // Without the money permission, no money figure in the answer nor in its order.
    const moneyKeys = metrics.filter((metric) => metric.money).map((metric) => metric.key);
    refuseMoneyOrder(query, moneyKeys);
    const [answer, about] = await Promise.all([reports.run(query, scope), meta()]);
    return { ...withoutMoney(answer, moneyKeys), meta: { ...answer.meta, ...about } };
  });
}
