// `GET /api/live`, a Server-Sent Events stream of the acting workspace's clicks, leads,
// conversions and outbound postbacks as they happen, of one campaign with `?campaign=`. Read under the
// reports permission, as the event tables are; money only with the money permission. Each message says
// whether it is sampled and at what rate (hub.ts).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { seesMoney, withoutMoney } from '../auth/money.js';
import { workspaceOf } from '../auth/workspace.js';
import { authorize } from '../http/guard.js';
import { parseInput } from '../http/parse.js';
import type { LiveHub } from './hub.js';

export const ZLiveQuery = z.object({
  campaign: z.string().min(1).max(255).optional(),
  /** The session or API token, for an EventSource, which cannot send an Authorization header. */
  token: z.string().optional(),
});

/** A comment line every so often keeps proxies from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;
/** Unsent messages a stream may hold before it is dropped: a reader that stopped reading. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export function liveRoutes(app: FastifyInstance, hub: LiveHub): void {
  const open = new Set<() => void>();
  // Open streams would keep the server's close waiting for their connections.
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  app.get('/live', { config: { queryToken: true } }, async (request, reply) => {
    const actor = authorize(request, 'tracker', 'reports', 'get');
    const workspaceId = workspaceOf(actor);
    const { campaign } = parseInput(ZLiveQuery, request.query);
    const money = seesMoney(actor);
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    response.write(': live\n\n');

    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(end);
      response.end();
    };
    const unsubscribe = hub.subscribe({ workspaceId, campaign }, (event, sampling) => {
      if (response.writableLength > MAX_BUFFERED_BYTES) {
        end();
        return;
      }
      const data = {
        ...(money ? event.data : withoutMoney(event.data)),
        sampled: sampling.sampled,
        rate: sampling.rate,
      };
      response.write(`event: ${event.kind}\ndata: ${JSON.stringify(data)}\n\n`);
    });
    const heartbeat = setInterval(() => response.write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    open.add(end);
    response.on('close', end);
  });
}
