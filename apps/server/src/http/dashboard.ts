import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ERROR_MESSAGES } from '@switchyard/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DASHBOARD_CSP } from './security-headers.js';

const ASSET_CACHE = 'public, max-age=31536000, immutable';
const NOT_BUILT_HINT =
  'Switchyard is running, but the dashboard has not been built.\n' +
  'Run `npm run build` (or `npm start`) from the repository root, then reload this page.\n';

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/**
 * Serves the built SPA: hashed files under /assets are cached for a year, everything else (index.html
 * above all) is revalidated so a new release shows at once. Each file goes out as the brotli or gzip form
 * the build wrote beside it (`.br`, `.gz`) when the browser takes one, with `Vary: Accept-Encoding`; no
 * CPU is spent compressing per request. Without a build, `/` explains what to run.
 * Returns the not-found handler for the whole app: /api answers JSON, page loads get index.html.
 */
export async function dashboard(
  app: FastifyInstance,
  linkedDist: string,
): Promise<(request: FastifyRequest, reply: FastifyReply) => FastifyReply> {
  const built = existsSync(path.join(linkedDist, 'index.html'));
  // `npm start` swaps each new build in by pointing the dist link at it: a running server keeps serving
  // the build it started with (the files its pages ask for), not one swapped in under it.
  const webDist = built ? realpathSync(linkedDist) : linkedDist;
  if (built) {
    const assetsDir = path.join(webDist, 'assets') + path.sep;
    await app.register(fastifyStatic, {
      root: webDist,
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply, filePath) {
        reply.header('cache-control', filePath.startsWith(assetsDir) ? ASSET_CACHE : 'no-cache');
        // Every file the dashboard is made of, index.html above all, whether asked for or the SPA's fallback.
        reply.header('content-security-policy', DASHBOARD_CSP);
      },
    });
  } else {
    app.get('/', async (_request, reply) => reply.type('text/plain; charset=utf-8').send(NOT_BUILT_HINT));
  }

  return (request, reply) => {
    const wantsPage =
      built &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(request.url) &&
      (request.headers.accept ?? '').includes('text/html');
    if (wantsPage) return reply.sendFile('index.html');
    return reply.code(404).send({ message: ERROR_MESSAGES.notFound });
  };
}
