import { type Action, can, type Section } from '@switchyard/domain';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../auth/actor.js';
import { canInstance, type InstanceAction } from '../auth/instance.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook on every /api route that is not public. */
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (login). */
    public?: boolean;
    /** Reachable with a session only, not with an API token (the user's own account). */
    sessionOnly?: boolean;
    /** The token may come as `?token=` too (an EventSource cannot send headers): `GET /api/live` only. */
    queryToken?: boolean;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** `?token=` of a route that takes it (queryToken); the Authorization header wins. */
export function requestToken(request: FastifyRequest): string | null {
  const header = bearerToken(request);
  if (header || !request.routeOptions.config.queryToken) return header;
  const token = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' && token.length > 0 ? token : null;
}

export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw new UnauthorizedError();
  return request.actor;
}

/** §6: the acting user must hold the root, the section, the resource or the action. */
export function authorize(request: FastifyRequest, section: Section, resource: string, action: Action): Actor {
  const actor = requireActor(request);
  if (!can(actor, section, resource, action)) throw new ForbiddenError();
  return actor;
}

/** The instance's settings, by a signed-in user holding `/instance/settings/<action>`. */
export function authorizeInstance(request: FastifyRequest, action: InstanceAction): Actor {
  const actor = requireActor(request);
  if (!canInstance(actor, action)) throw new ForbiddenError();
  return actor;
}
