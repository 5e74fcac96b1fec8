import { users } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../http/resource-routes.js';
import type { UsersService } from './service.js';

export function userRoutes(app: FastifyInstance, service: UsersService): void {
  resourceRoutes(app, users, service);
}
