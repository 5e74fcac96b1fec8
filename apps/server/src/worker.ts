// A click-serving worker under the primary (primary.ts): the whole server (app.ts) on the primary's
// listening socket. It says `ready` once it has started (journal replayed, routing compiled, caps
// warmed) and listens; told to drain, it stops taking connections, answers every request still
// coming on the ones it has (each answer closing its connection), stores every event, and exits.
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { PrimaryChannel } from './cluster/channel.js';
import { type Config, databaseDialect } from './config.js';
import { withoutLinkTokens } from './http/log-redaction.js';
import type { TrustProxy } from './http/trusted-proxies.js';

/** How long a leaving worker waits for its kept-alive connections to close after an answer of theirs. */
const IDLE_GRACE_MS = 5000;

export async function runWorker(config: Config, trustProxy: TrustProxy): Promise<void> {
  const primary = new PrimaryChannel();
  // A Ctrl-C or a closed terminal reaches every process of the group: the primary decides.
  process.on('SIGINT', () => undefined);
  process.on('SIGHUP', () => undefined);
  const app = await buildApp({
    config,
    logger: { level: process.env.LOG_LEVEL ?? 'info', serializers: { req: withoutLinkTokens } },
    trustProxy,
    primary,
  });
  app.log.info(
    {
      database: databaseDialect(config) === 'postgres' ? 'postgres' : `sqlite (${config.dataDir})`,
      // The URL may carry a password: only say where the counts live.
      capsAndLoginLimits: config.redisUrl ? 'redis' : 'primary process',
      dashboard: config.webDist,
    },
    'storage ready',
  );
  let draining = false;
  // Once leaving, every answer closes its connection: the client's next request opens a new one, which
  // the primary gives to a worker that stays.
  app.server.prependListener('request', (_request, response) => {
    if (draining && !response.headersSent) response.setHeader('connection', 'close');
  });
  const drain = async (reason: string, reload = false): Promise<void> => {
    if (draining) return;
    draining = true;
    app.log.info({ reason }, 'worker leaving: answering what is open, then storing every event');
    try {
      await app.sharedReports?.release();
      // net.Server's close: stop taking connections, but leave idle kept-alive ones open (http.Server's
      // would close them now, and a request already on its way on one would be cut off).
      const closed = new Promise<void>((resolve) => {
        net.Server.prototype.close.call(app.server, () => resolve());
      });
      // On a reload other workers take over the clients; when stopping, nobody does.
      if (reload) await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, IDLE_GRACE_MS).unref())]);
      // Fastify's close: live streams end, idle connections close, in-flight requests finish, events stored.
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'worker did not close cleanly');
      process.exit(1);
    }
  };
  primary.onOrder((order) => {
    if (order.sy === 'drain') void drain(order.reload ? 'reload' : 'stop', order.reload);
  });
  process.once('SIGTERM', () => void drain('SIGTERM'));
  // The primary is gone (killed): this worker stops too, cleanly, rather than serve alone.
  process.once('disconnect', () => void drain('primary gone'));

  await app.listen({ port: config.port, host: config.host });
  // Own domains: HTTPS with SNI beside HTTP, its port shared through the primary like HTTP's.
  if (config.domains.httpsPort !== undefined) await app.listenHttps(config.domains.httpsPort, config.host);
  primary.send({ sy: 'ready' });
}

export type { FastifyInstance };
