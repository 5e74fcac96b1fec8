// A hosted lander's files as visitors get them, at `/l/{lander}/{path}` (`index.html` for a
// folder) on whatever host the click came to: the click's redirect to a hosted lander is relative
// (compile.ts hostedLanderUrl). Outside /api, so no session is read. Every answer is sandboxed
// (`Content-Security-Policy: sandbox …`): the page runs in an opaque origin, so even on the dashboard's
// own host (localhost in development, a domain serving both) its scripts can read none of the
// dashboard's cookies or storage and call /api as nobody. Nothing here sets or reads a cookie.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { LanderFileStore } from '../store/lander-files.js';
import type { TrafficEngine } from '../traffic/engine.js';
import { isHtmlFile } from './file-types.js';
import { fillLanderHtml, type LanderVisit } from './fill.js';

export const LANDER_CSP = 'sandbox allow-scripts allow-forms allow-popups allow-top-navigation';
const CLICK_ID = /^[A-Za-z0-9_-]{1,64}$/;
const LANDER_ID = /^[A-Za-z0-9]{1,64}$/;

function notFound(reply: FastifyReply): FastifyReply {
  return reply
    .code(404)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ message: 'Not found' }));
}

export function landerServeRoutes(app: FastifyInstance, files: LanderFileStore, engine: TrafficEngine): void {
  // `/l/{lander}` → `/l/{lander}/`, so the page's relative links resolve inside its folder.
  app.get<{ Params: { lander: string } }>('/l/:lander', async (request, reply) => {
    if (!LANDER_ID.test(request.params.lander) || !engine.routing.tracker.landers.has(request.params.lander))
      return notFound(reply);
    const query = request.url.indexOf('?');
    const location = `/l/${encodeURIComponent(request.params.lander)}/${query < 0 ? '' : request.url.slice(query)}`;
    return reply.code(301).header('location', location).header('cache-control', 'no-store').send();
  });

  app.get<{ Params: { lander: string; '*': string }; Querystring: { clickid?: unknown } }>(
    '/l/:lander/*',
    async (request, reply) => {
      const lander = request.params.lander;
      // Only an active, enabled lander is served (the routing's own list of them).
      if (!LANDER_ID.test(lander) || !engine.routing.tracker.landers.has(lander)) return notFound(reply);
      const wanted = request.params['*'] ?? '';
      const filePath = wanted === '' || wanted.endsWith('/') ? `${wanted}index.html` : wanted;
      // The engine's own work (a public door): the lander id names the workspace.
      const file = await files.read({ instance: true }, lander, filePath);
      if (!file) return notFound(reply);
      reply
        .header('content-security-policy', LANDER_CSP)
        .header('x-content-type-options', 'nosniff')
        // The `iframe` redirect mode frames the lander from a page of the same host.
        .header('x-frame-options', 'SAMEORIGIN')
        .type(file.content_type);
      if (!isHtmlFile(filePath)) {
        return reply.header('cache-control', 'public, max-age=300').send(file.bytes);
      }
      const clickId = typeof request.query.clickid === 'string' ? request.query.clickid : '';
      let visit: LanderVisit | null = null;
      if (CLICK_ID.test(clickId)) {
        const click = await engine.landerClick(lander, clickId);
        if (click) visit = { ...click, clickId };
      }
      // Filled per visitor: never kept by a cache.
      return reply.header('cache-control', 'no-store').send(fillLanderHtml(file.bytes.toString('utf8'), visit));
    },
  );
}
