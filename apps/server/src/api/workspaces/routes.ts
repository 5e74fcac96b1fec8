import { workspaces } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../errors.js';
import { authorize } from '../../http/guard.js';
import { resourceRoutes } from '../../http/resource-routes.js';
import type { WorkspacesService } from './service.js';

export function workspaceRoutes(app: FastifyInstance, service: WorkspacesService): void {
  resourceRoutes(app, workspaces, service);
  // Administrators rotate the key in the workspace's postback URLs.
  app.post<{ Params: { id: string } }>('/workspaces/:id/postback-key', async (request) => {
    const actor = authorize(request, 'general', 'workspace', 'update');
    const id = Number(request.params.id);
    if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) throw new NotFoundError();
    return service.rotatePostbackKey(id, actor);
  });
}
