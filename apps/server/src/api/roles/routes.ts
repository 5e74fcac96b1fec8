import { roles } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../http/resource-routes.js';
import type { RolesService } from './service.js';

export function roleRoutes(app: FastifyInstance, service: RolesService): void {
  resourceRoutes(app, roles, service);
}
