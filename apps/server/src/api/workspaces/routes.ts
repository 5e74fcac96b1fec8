import { workspaces } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../resource-routes.js';
import type { WorkspacesService } from './service.js';

export function workspaceRoutes(app: FastifyInstance, service: WorkspacesService): void {
  resourceRoutes(app, workspaces, service);
}
