import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../errors.js';

// PostgreSQL refuses NUL (U+0000) in text, so an identifier holding one became a 500
// wherever a route looked it up without stripping it first. No stored id, key or name holds a NUL (every
// write refuses or strips it), so such a path names nothing: 404, checked once for every route, before
// any handler reads the database. A hook (preValidation) runs after the session check, so an anonymous
// caller still gets the 401.

const NUL = '\u0000';

export function refuseNulInPathParams(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const params = request.params as Record<string, unknown> | undefined;
    if (!params) return;
    for (const value of Object.values(params)) {
      if (typeof value === 'string' && value.includes(NUL)) throw new NotFoundError();
    }
  });
}
