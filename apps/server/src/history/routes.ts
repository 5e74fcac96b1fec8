import { ZHistoryQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../errors.js';
import { requireActor } from '../http/guard.js';
import { parseInput } from '../http/parse.js';
import type { HistoryService } from './service.js';

function entryId(raw: string): number {
  const id = /^[0-9]{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw new NotFoundError();
  return id;
}

/**
 * `GET /api/history`, `GET /api/history/{entry}`, `POST /api/history/{entry}/restore`. Each
 * entry is read under the permission to get its resource (HistoryService); a restore under the update.
 */
export function historyRoutes(app: FastifyInstance, history: HistoryService): void {
  app.get('/history', async (request) => history.list(parseInput(ZHistoryQuery, request.query), requireActor(request)));
  app.get<{ Params: { id: string } }>('/history/:id', async (request) =>
    history.get(entryId(request.params.id), requireActor(request)),
  );
  app.post<{ Params: { id: string } }>('/history/:id/restore', async (request) =>
    history.restore(entryId(request.params.id), requireActor(request)),
  );
}
