import { ZReportQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { authorize } from '../api/guard.js';
import { parseInput } from '../api/parse.js';
import type { Database } from '../store/schema.js';
import { ReportsService } from './service.js';

/** §7.5 `GET /api/reports`; §6: reports have a single get check (tracker/reports/get). */
export function reportRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  const reports = new ReportsService(db);
  app.get('/reports', async (request) => {
    authorize(request, 'tracker', 'reports', 'get');
    return reports.run(parseInput(ZReportQuery, request.query));
  });
}
