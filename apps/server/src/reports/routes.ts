import { ZReportQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { authorize } from '../api/guard.js';
import { parseInput } from '../api/parse.js';
import { workspaceOf } from '../auth/workspace.js';
import type { ReportRunner } from './runner.js';

/** §7.5 `GET /api/reports`; §6: reports have a single get check (tracker/reports/get). */
export function reportRoutes(app: FastifyInstance, reports: ReportRunner): void {
  app.get('/reports', async (request) => {
    const actor = authorize(request, 'tracker', 'reports', 'get');
    // Issue 19: only the acting workspace's events.
    return reports.run(parseInput(ZReportQuery, request.query), { workspaceId: workspaceOf(actor) });
  });
}
