import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { accountRoutes } from './api/accounts/routes.js';
import { authRoutes } from './api/auth/routes.js';
import { AuthService } from './api/auth/service.js';
import { configRecordRoutes } from './api/config-records/routes.js';
import { bearerToken } from './api/guard.js';
import { referenceDataRoutes } from './api/reference-data/routes.js';
import { roleRoutes } from './api/roles/routes.js';
import { RolesService } from './api/roles/service.js';
import { userRoutes } from './api/users/routes.js';
import { UsersService } from './api/users/service.js';
import { workspaceRoutes } from './api/workspaces/routes.js';
import { WorkspacesService } from './api/workspaces/service.js';
import { InMemoryLoginLimiter, type LoginLimiter } from './auth/login-limiter.js';
import { Sessions } from './auth/sessions.js';
import type { Config } from './config.js';
import { UnauthorizedError } from './errors.js';
import { dashboard } from './http/dashboard.js';
import { errorHandler } from './http/error-handler.js';
import { lenientJsonBody } from './http/json-body.js';
import { securityHeaders } from './http/security-headers.js';
import { createMailer } from './mail/mailer.js';
import { reportRoutes } from './reports/routes.js';
import { migrateToLatest, openStore, type Store } from './store/database.js';
import { type SeedResult, seedEmptyDatabase } from './store/seed.js';
import { trackerRoutes } from './tracker/routes.js';
import { Tracker, type TrackerOptions } from './tracker/tracker.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface BuildOptions {
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** Failed-login counting; in memory unless replaced (e.g. by a shared one). */
  loginLimiter?: LoginLimiter;
  /** Where the generated first-administrator password is printed; console.log by default. */
  print?: (text: string) => void;
  /** Honour X-Forwarded-For when behind a reverse proxy (per-IP login limits use the client IP). */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /** Routing randomness, clock, cap counters and event batching of the tracker (tests replace them). */
  tracker?: TrackerOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
    seedResult: SeedResult;
    tracker: Tracker;
  }
}

/** The whole server, migrated, seeded and ready: tests drive it with `app.inject`, main.ts listens. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const store = openStore(config);
  try {
    await migrateToLatest(store);
    const seedResult = await seedEmptyDatabase(store, {
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
      ...(options.print ? { print: options.print } : {}),
    });
    return await createServer(options, store, seedResult);
  } catch (error) {
    await store.db.destroy();
    throw error;
  }
}

async function createServer(options: BuildOptions, store: Store, seedResult: SeedResult): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: options.trustProxy ?? false,
  });
  app.decorate('store', store);
  app.decorate('seedResult', seedResult);
  app.decorateRequest('actor', null);
  app.addHook('onClose', async () => {
    await store.db.destroy();
  });

  securityHeaders(app);
  lenientJsonBody(app);
  app.setErrorHandler(errorHandler);

  const sessions = new Sessions(store.db);
  const auth = new AuthService(store.db, sessions, options.loginLimiter ?? new InMemoryLoginLimiter());
  const mailer = createMailer(options.config);
  if (mailer) app.addHook('onClose', async () => mailer.close());
  const tracker = new Tracker(store.db, app.log, {
    ...options.tracker,
    events: { ...options.tracker?.events, ...(store.sqlite ? { sqlite: store.sqlite } : {}) },
  });
  await tracker.start();
  app.decorate('tracker', tracker);
  // onClose hooks run last-added first: waiting events are written before the database closes.
  app.addHook('onClose', async () => tracker.close());
  const services = {
    users: new UsersService(store.db, sessions),
    workspaces: new WorkspacesService(store.db),
    roles: new RolesService(store.db),
  };

  await app.register(
    async (api) => {
      // Every /api route needs a live session unless it is marked public.
      api.addHook('onRequest', async (request) => {
        if (request.routeOptions.config.public) return;
        const token = bearerToken(request);
        request.actor = token ? await auth.authenticate(token) : null;
        if (!request.actor) throw new UnauthorizedError();
      });
      authRoutes(api, auth);
      accountRoutes(api, { db: store.db, sessions, mailer, publicUrl: options.config.publicUrl, log: app.log });
      userRoutes(api, services.users);
      workspaceRoutes(api, services.workspaces);
      roleRoutes(api, services.roles);
      configRecordRoutes(api, store.db, tracker.configChanged);
      referenceDataRoutes(api);
      reportRoutes(api, store.db);
    },
    { prefix: '/api' },
  );

  // Public: visitors and partners' servers call these, outside /api and its session check.
  trackerRoutes(app, tracker);

  app.setNotFoundHandler(await dashboard(app, options.config.webDist));
  await app.ready();
  return app;
}
