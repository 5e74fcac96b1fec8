import type { FastifyInstance } from 'fastify';

/** Headers every answer carries; /api answers are never cached (they hold tokens and private data). */
export function securityHeaders(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every answer (every click), and a promise per answer
  // is measurable there.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'DENY');
    if (request.url.startsWith('/api/') || request.url === '/api') reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
