import type { FastifyInstance } from 'fastify';

/**
 * Headers every answer with content carries. Redirects (the tracker's clicks) go without them: they have
 * no content to sniff or frame, and the referrer policy in force stays the visitor's page's (or the
 * browser's default), which is what traffic sources and offers expect of a tracker.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};

/** Answers other than redirects carry SECURITY_HEADERS; /api answers are never cached (they hold tokens and private data). */
export function securityHeaders(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every answer, and a promise per answer is measurable.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode < 300 || reply.statusCode >= 400) reply.headers(SECURITY_HEADERS);
    if (request.url.startsWith('/api/') || request.url === '/api') reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
