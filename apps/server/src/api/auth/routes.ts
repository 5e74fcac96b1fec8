import { ZLoginForm } from '@switchyard/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionClient } from '../../auth/sessions.js';
import { requireActor } from '../../http/guard.js';
import { parseInput } from '../../http/parse.js';
import type { AuthService } from './service.js';

function clientOf(request: FastifyRequest): SessionClient {
  return { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
}

/** §7.1: login, logout and the current user. */
export function authRoutes(app: FastifyInstance, service: AuthService): void {
  app.post('/login', { config: { public: true } }, async (request) => {
    const form = parseInput(ZLoginForm, request.body);
    return service.login(form, clientOf(request));
  });

  app.post('/logout', async (request) => {
    await service.logout(requireActor(request));
    return { ok: true };
  });

  app.get('/me', async (request) => service.me(requireActor(request)));
}
