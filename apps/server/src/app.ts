import http from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { Notifier } from './alerts/notifier.js';
import { AuthService } from './api/auth/service.js';
import type { ConfigChangeListener } from './api/config-records/service.js';
import { ApiTokensService } from './api/tokens/service.js';
import { apiRoutes } from './api-routes.js';
import { InMemoryLoginLimiter, type LoginLimiter } from './auth/login-limiter.js';
import { RedisLoginLimiter } from './auth/redis-login-limiter.js';
import { type SeedResult, seedEmptyDatabase } from './auth/seed.js';
import { Sessions } from './auth/sessions.js';
import { primaryBus } from './cluster/bus.js';
import type { PrimaryChannel } from './cluster/channel.js';
import { parseWorkers } from './cluster/primary.js';
import { SharedReportRunner } from './cluster/reports.js';
import {
  PrimaryCapCounters,
  PrimaryLoginLimiter,
  PrimaryUniqueClicks,
  primaryAccountLimits,
} from './cluster/shared-counts.js';
import { startClickHouse } from './columnar/clickhouse-node.js';
import { type Config, journalDir } from './config.js';
import { challengeRoute } from './domains/routes.js';
import { type DomainParts, setupDomains } from './domains/setup.js';
import { listenHttps } from './domains/tls.js';
import { dashboard } from './http/dashboard.js';
import { errorHandler } from './http/error-handler.js';
import { lenientJsonBody } from './http/json-body.js';
import { refuseNulInPathParams } from './http/path-params.js';
import { securityHeaders } from './http/security-headers.js';
import type { TrustProxy } from './http/trusted-proxies.js';
import { landerServeRoutes } from './landers/serve.js';
import { shareLiveEvents } from './live/redis-live.js';
import { createMailer } from './mail/mailer.js';
import { type ReportRunner, reportRunner } from './reports/runner.js';
import { startRounds } from './rounds.js';
import type { RuleEngine } from './rules/engine.js';
import { redisBus } from './store/bus.js';
import { pruneUnread } from './store/change-logs.js';
import { migrateToLatest, openStore, type Store } from './store/database.js';
import { LanderFileStore } from './store/lander-files.js';
import { closeRedis, OutageWarning, openRedis, REDIS_KEY_PREFIX } from './store/redis.js';
import { shareConfigChanges } from './store/redis-notices.js';
import { type EngineOptions, TrafficEngine } from './traffic/engine.js';
import { directRoutes } from './traffic/http/direct-routes.js';
import { type FastPath, fastClickPath } from './traffic/http/fast-click.js';
import { trafficRoutes } from './traffic/http/routes.js';
import { RedisCapCounters } from './traffic/rules/redis-caps.js';
import { RedisUniqueClicks } from './traffic/visitor/uniques-redis.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Fastify's default keep-alive timeout. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

export interface BuildOptions {
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** Failed-login counting; in Redis when REDIS_URL is set, else in memory, unless replaced. */
  loginLimiter?: LoginLimiter;
  /** Where the generated first-administrator password is printed; console.log by default. */
  print?: (text: string) => void;
  /**
   * Honour X-Forwarded-For when behind a reverse proxy (clicks' countries, per-IP login limits): from any
   * proxy (`true`) or from these addresses and CIDRs only (SWITCHYARD_TRUST_PROXY, trusted-proxies.ts).
   */
  trustProxy?: TrustProxy;
  /** Routing randomness, clock, cap counters and event batching of the engine (tests replace them). */
  engine?: EngineOptions;
  /** Start of every Redis key; `switchyard:` unless replaced (tests use one per run). */
  redisKeyPrefix?: string;
  /** Check every /api answer against /api/openapi.json, and answer 500 on a mismatch (tests). */
  checkAnswers?: boolean;
  /**
   * Set in a worker of the primary process (worker.ts): without Redis, caps and login limits are
   * counted by the primary, and config changes and live events reach the other workers through it; on
   * SQLite, reports run in the one worker the primary names.
   */
  primary?: PrimaryChannel;
}

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
    seedResult: SeedResult;
    engine: TrafficEngine;
    /** Under a primary on SQLite: the report reader this worker holds or hands reports on from. */
    sharedReports: SharedReportRunner | null;
    /** The report engine (a child process): tests stop or kill it. */
    reports: ReportRunner;
    notifier: Notifier;
    domains: DomainParts;
    /** Serves HTTPS with SNI on `port` (0: any free port), beside HTTP; answers the port. */
    listenHttps(port: number, host: string): Promise<number>;
    rules: RuleEngine;
  }
}

/** The whole server, migrated, seeded and ready: tests drive it with `app.inject`, main.ts listens. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const store = openStore(config);
  let redis: Redis | null = null;
  try {
    // Shared by the cap counters and the login limiter; a node set to share them does not start alone.
    if (config.redisUrl) redis = await openRedis(config.redisUrl);
    await migrateToLatest(store);
    const seedResult = await seedEmptyDatabase(store, {
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
      ...(options.print ? { print: options.print } : {}),
    });
    return await createServer(options, store, seedResult, redis);
  } catch (error) {
    redis?.disconnect();
    await store.db.destroy();
    throw error;
  }
}

async function createServer(
  options: BuildOptions,
  store: Store,
  seedResult: SeedResult,
  redis: Redis | null,
): Promise<FastifyInstance> {
  // Over HTTP, clicks are answered ahead of Fastify's router once the engine is up (fast-click.ts).
  let fastPath: FastPath | null = null;
  // Own domains' hosts are sorted out first (domains/host-routing.ts): a click there is rewritten to /c/….
  let domainPath: FastPath | null = null;
  let dispatch: ((request: http.IncomingMessage, response: http.ServerResponse) => void) | null = null;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: typeof options.trustProxy === 'object' ? [...options.trustProxy] : (options.trustProxy ?? false),
    serverFactory: (handler, serverOptions) => {
      const settings = serverOptions as {
        keepAliveTimeout?: number;
        requestTimeout?: number;
        connectionTimeout?: number;
      };
      dispatch = (request, response) => {
        if (domainPath?.(request, response)) return;
        if (fastPath?.(request, response)) return;
        handler(request, response);
      };
      const made = http.createServer(dispatch);
      // What Fastify sets on a server it makes itself.
      made.keepAliveTimeout = settings.keepAliveTimeout ?? KEEP_ALIVE_TIMEOUT_MS;
      made.requestTimeout = settings.requestTimeout ?? 0;
      made.setTimeout(settings.connectionTimeout ?? 0);
      return made;
    },
  });
  app.decorate('store', store);
  app.decorate('seedResult', seedResult);
  app.decorateRequest('actor', null);
  app.addHook('onClose', async () => {
    await store.db.destroy();
  });
  const primary = options.primary;
  const shared = redis
    ? sharedCounts(app, redis, options.redisKeyPrefix)
    : primary
      ? {
          caps: new PrimaryCapCounters(primary),
          // One worker keeps uniqueness itself (no message a click); several share the primary's.
          ...(parseWorkers(process.env.SWITCHYARD_WORKERS) > 1 ? { uniques: new PrimaryUniqueClicks(primary) } : {}),
          loginLimiter: new PrimaryLoginLimiter(primary, 'login'),
        }
      : null;
  // Config changes and live events reach the other nodes (Redis) or the primary's other workers.
  const bus = redis ? redisBus(redis) : primary ? primaryBus(primary) : null;

  securityHeaders(app);
  lenientJsonBody(app);
  refuseNulInPathParams(app);
  app.setErrorHandler(errorHandler);

  const sessions = new Sessions(store.db);
  const loginLimiter = options.loginLimiter ?? shared?.loginLimiter ?? new InMemoryLoginLimiter();
  const apiTokens = new ApiTokensService(store.db);
  const auth = new AuthService(store.db, sessions, loginLimiter, apiTokens);
  const mailer = createMailer(options.config);
  if (mailer) app.addHook('onClose', async () => mailer.close());
  // With PostgreSQL and CLICKHOUSE_URL, events go on to ClickHouse and reports read them there.
  const clickhouse =
    options.config.clickhouseUrl && !store.sqlite
      ? startClickHouse(store.db, options.config.clickhouseUrl, {
          info: (message) => app.log.info(message),
          warn: (message) => app.log.warn(message),
        })
      : null;
  if (clickhouse) app.addHook('onClose', async () => clickhouse.close());
  // Without a columnar store on PostgreSQL nothing reads the change logs: they are pruned once a week old.
  if (!clickhouse && !store.sqlite) {
    const stopPruning = pruneUnread(store.db, { info: (message) => app.log.warn(message) });
    app.addHook('onClose', stopPruning);
  }
  const engine = new TrafficEngine(
    store.db,
    app.log,
    {
      ...(shared ? { caps: shared.caps, ...('uniques' in shared ? { uniques: shared.uniques } : {}) } : {}),
      journal: { dir: journalDir(options.config), fsyncIntervalMs: options.config.journalFsyncMs },
      cacheDir: options.config.cacheDir,
      postbackLogDays: options.config.postbackLogDays,
      ...options.engine,
      ...(clickhouse ? { events: { ...options.engine?.events, feed: clickhouse.feed } } : {}),
      outbound: { allowPrivateTargets: options.config.allowPrivateTargets, ...options.engine?.outbound },
      ...(primary ? { storeElsewhere: () => primary.settle({ kind: 'events' }) } : {}),
    },
    store.sqlite,
  );
  await engine.start();
  app.decorate('engine', engine);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  fastPath = fastClickPath(engine, {
    trustProxy: options.trustProxy ?? false,
    log: app.log,
    closing: () => closing,
  });
  // onClose hooks run last-added first: waiting events are written before the database closes.
  app.addHook('onClose', async () => engine.close());
  let publishDomains: ((kind: string) => Promise<void>) | null = null;
  const domains = await setupDomains(
    store.db,
    engine,
    options.config.domains,
    app.log,
    () => publishDomains,
    options.config.publicUrl,
  );
  app.addHook('onClose', async () => domains.close());
  app.decorate('domains', domains);
  domainPath = domains.routing;
  const httpsServers: HttpsServer[] = [];
  app.addHook('onClose', async () => {
    for (const server of httpsServers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
  app.decorate('listenHttps', async (port: number, host: string) => {
    if (!dispatch) throw new Error('The HTTP server is not made yet');
    const https = await listenHttps(dispatch, domains.certificates, {
      port,
      host,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    });
    httpsServers.push(https.server);
    domains.setHttpsPort(https.port);
    return https.port;
  });
  // With Redis, a saved record recompiles the routing of every node, not only this one's.
  let onConfigChange: ConfigChangeListener = engine.configChanged;
  if (bus) {
    const notices = await shareConfigChanges(
      bus,
      options.redisKeyPrefix ?? REDIS_KEY_PREFIX,
      {
        changed: (kind) => (kind === 'domains' ? domains.changed() : engine.configChanged(kind)),
        resync: async () => {
          await Promise.all([engine.resync(), domains.changed()]);
        },
      },
      app.log,
    );
    app.addHook('onClose', async () => notices.close());
    const live = await shareLiveEvents(bus, options.redisKeyPrefix ?? REDIS_KEY_PREFIX, engine.live, app.log);
    app.addHook('onClose', async () => live.close());
    onConfigChange = async (kind) => {
      await engine.configChanged(kind);
      await notices.publish(kind);
    };
    publishDomains = (kind) => notices.publish(kind);
    // A worker started during a reload compiled its routing before it heard of changes: once more now.
    if (primary) await engine.resync();
  }
  if (primary) {
    // Read-your-writes across workers (cluster/settle.ts): a save is answered once every worker routes
    // by it, so the campaign just saved never answers 404 on another worker; and a worker asked for a
    // click another holds has it stored first.
    const changed = (kind: string) => (kind === 'domains' ? domains.changed() : engine.configChanged(kind));
    primary.onSettle((what) => (what.kind === 'events' ? engine.flush() : changed(what.record)));
    const announce = onConfigChange;
    onConfigChange = async (kind) => {
      await announce(kind);
      await primary.settle({ kind: 'config', record: kind });
    };
    const announceDomains = publishDomains;
    publishDomains = async (kind) => {
      await announceDomains?.(kind);
      await primary.settle({ kind: 'config', record: kind });
    };
  }
  // Closed before the store (onClose hooks run last-added first).
  const openReports = () =>
    reportRunner(
      store,
      options.config.reports,
      options.config.databaseUrl,
      (message) => app.log.info(message),
      clickhouse && options.config.clickhouseUrl
        ? { url: options.config.clickhouseUrl, reader: clickhouse.reader }
        : undefined,
    );
  // Under a primary on SQLite, one worker at a time runs the report engine (cluster/reports.ts).
  const sharedReports = primary && store.sqlite ? new SharedReportRunner(primary, openReports) : null;
  app.decorate('sharedReports', sharedReports);
  const reports = sharedReports ?? openReports();
  app.decorate('reports', reports);
  // On SQLite the instance-wide rounds (tuner, monitors) run in that worker alone.
  const singleton = (round: () => Promise<unknown>) => () =>
    sharedReports && !sharedReports.holding ? Promise.resolve(null) : round();
  app.addHook('onClose', async () => reports.close());
  const notifier = new Notifier(store.db, {
    mailer,
    telegramApiUrl: options.config.telegramApiUrl,
    allowPrivateTargets: options.config.allowPrivateTargets,
    timeoutMs: 10_000,
    log: app.log,
  });
  app.decorate('notifier', notifier);
  app.addHook('onClose', async () => notifier.close());
  // Live weights, monitors and rules on their timers (rounds.ts), stopped before the notifier and reports.
  const { tuner, rules } = startRounds(app, {
    store,
    config: options.config,
    reports,
    notifier,
    engine,
    onConfigChange,
    singleton,
  });
  app.decorate('rules', rules);
  // Hosted landers' files, in the rows on PostgreSQL, under the data directory on SQLite.
  const landerFiles = new LanderFileStore(store.db, store.sqlite ? options.config.dataDir : null);

  await apiRoutes(app, {
    config: options.config,
    checkAnswers: options.checkAnswers ?? false,
    store,
    auth,
    apiTokens,
    sessions,
    mailer,
    ...(primary && !redis ? { accountLimits: primaryAccountLimits(primary) } : {}),
    domains,
    onConfigChange,
    reports,
    engine,
    tuner,
    notifier,
    rules,
    landerFiles,
  });

  // Public: visitors and partners' servers call these, outside /api and its session check.
  trafficRoutes(app, engine);
  directRoutes(app, engine);
  landerServeRoutes(app, landerFiles, engine);
  challengeRoute(app, store.db);

  app.setNotFoundHandler(await dashboard(app, options.config.webDist));
  await app.ready();
  return app;
}

/** Cap counters and failed-login counts in Redis, shared with every node; the connection closes with the app. */
function sharedCounts(app: FastifyInstance, redis: Redis, prefix: string | undefined) {
  const outage = new OutageWarning(app.log, 'Redis connection lost; reconnecting');
  redis.on('error', (error) => outage.report(error));
  redis.on('ready', () => app.log.info('Redis answers again'));
  // Added right after the store's: runs after the engine has closed, just before the store closes.
  app.addHook('onClose', async () => closeRedis(redis));
  return {
    caps: new RedisCapCounters(redis, { log: app.log, prefix }),
    uniques: new RedisUniqueClicks(redis, { log: app.log, prefix }),
    loginLimiter: new RedisLoginLimiter(redis, { log: app.log, prefix }),
  };
}
