import { ZApiTokenForm } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../errors.js';
import { requireActor } from '../../http/guard.js';
import { parseInput } from '../../http/parse.js';
import type { ApiTokensService } from './service.js';

/**
 * `POST /api/tokens` (201, the secret shown once), `GET /api/tokens`, `DELETE /api/tokens/{id}`.
 * Personal, like the profile: every signed-in user manages their own tokens, in the acting workspace, and
 * can only give a token permissions they hold.
 */
export function apiTokenRoutes(app: FastifyInstance, tokens: ApiTokensService): void {
  app.post('/tokens', async (request, reply) => {
    const actor = requireActor(request);
    return reply.code(201).send(await tokens.create(parseInput(ZApiTokenForm, request.body), actor));
  });
  app.get('/tokens', async (request) => tokens.list(requireActor(request)));
  app.delete<{ Params: { id: string } }>('/tokens/:id', async (request, reply) => {
    const actor = requireActor(request);
    const id = /^[0-9]{1,10}$/.test(request.params.id) ? Number(request.params.id) : Number.NaN;
    if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw new NotFoundError();
    await tokens.revoke(id, actor);
    return reply.code(204).send();
  });
}
