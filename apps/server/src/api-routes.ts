// Every /api route, behind the session check: each needs a live session (or an API token) unless it is
// marked public, and acts in the workspace the request names (auth/workspace.ts). The public routes
// (clicks, postbacks, hosted landers, ACME challenges) are app.ts's, outside /api.
import type { FastifyInstance } from 'fastify';
import { monitorRoutes } from './alerts/monitor-routes.js';
import type { Notifier } from './alerts/notifier.js';
import { alertRoutes } from './alerts/routes.js';
import type { AccountLimits } from './api/accounts/limits.js';
import { accountRoutes } from './api/accounts/routes.js';
import { authRoutes } from './api/auth/routes.js';
import type { AuthService } from './api/auth/service.js';
import { backupRoutes } from './api/backups/routes.js';
import { botProtectionRoutes } from './api/bot-protection/routes.js';
import { trackerCampaignUrls } from './api/config-records/campaign-urls.js';
import { clickTokenRoutes } from './api/config-records/click-token.js';
import { networkPostbackUrls } from './api/config-records/postback-urls.js';
import { configRecordRoutes } from './api/config-records/routes.js';
import type { ConfigChangeListener } from './api/config-records/service.js';
import { simulateRoutes } from './api/config-records/simulate.js';
import { conversionRoutes } from './api/conversions/routes.js';
import { currencyRateRoutes } from './api/currency-rates/routes.js';
import { collectApiRoutes, openApiRoutes } from './api/openapi.js';
import { referenceDataRoutes } from './api/reference-data/routes.js';
import { roleRoutes } from './api/roles/routes.js';
import { RolesService } from './api/roles/service.js';
import { apiTokenRoutes } from './api/tokens/routes.js';
import type { ApiTokensService } from './api/tokens/service.js';
import { userRoutes } from './api/users/routes.js';
import { UsersService } from './api/users/service.js';
import { workspaceRoutes } from './api/workspaces/routes.js';
import { WorkspacesService } from './api/workspaces/service.js';
import type { Sessions } from './auth/sessions.js';
import { actingWorkspace } from './auth/workspace.js';
import type { Config } from './config.js';
import { costRoutes } from './costs/routes.js';
import { domainRoutes } from './domains/routes.js';
import type { DomainParts } from './domains/setup.js';
import { ForbiddenError, UnauthorizedError } from './errors.js';
import { eventReplayRoutes } from './events/replay.js';
import { eventTableRoutes } from './events/routes.js';
import { historyRoutes } from './history/routes.js';
import { HistoryService } from './history/service.js';
import { requestToken } from './http/guard.js';
import { answerJsonLd } from './http/json-ld.js';
import { importRoutes } from './imports/routes.js';
import { landerFileRoutes } from './landers/routes.js';
import { liveRoutes } from './live/routes.js';
import type { Mailer } from './mail/mailer.js';
import { optimizationRoutes } from './optimization/routes.js';
import type { WeightTuner } from './optimization/tuner.js';
import { postbackLogRoutes } from './postback-log/routes.js';
import { customMetricRoutes } from './reports/custom-metrics.js';
import { reportNoticeRoutes } from './reports/notices.js';
import { reportViewRoutes } from './reports/report-views.js';
import { reportRoutes } from './reports/routes.js';
import type { ReportRunner } from './reports/runner.js';
import type { RuleEngine } from './rules/engine.js';
import { ruleRoutes } from './rules/routes.js';
import type { Store } from './store/database.js';
import type { LanderFileStore } from './store/lander-files.js';
import type { TrafficEngine } from './traffic/engine.js';

/** What the /api routes are built on: the server's own parts, made once in app.ts. */
export interface ApiParts {
  config: Config;
  /** Check every /api answer against /api/openapi.json, and answer 500 on a mismatch (tests). */
  checkAnswers: boolean;
  store: Store;
  auth: AuthService;
  apiTokens: ApiTokensService;
  sessions: Sessions;
  mailer: Mailer | null;
  /** Account requests counted by the primary (workers without Redis); else in this process. */
  accountLimits?: AccountLimits;
  domains: DomainParts;
  onConfigChange: ConfigChangeListener;
  reports: ReportRunner;
  engine: TrafficEngine;
  tuner: WeightTuner;
  notifier: Notifier;
  rules: RuleEngine;
  landerFiles: LanderFileStore;
}

export async function apiRoutes(app: FastifyInstance, parts: ApiParts): Promise<void> {
  const { config, store, auth, engine, reports, onConfigChange } = parts;
  // Every /api route, as registered, for /api/openapi.json.
  const registered = collectApiRoutes(app);
  await app.register(
    async (api) => {
      // Every /api route needs a live session unless it is marked public.
      api.addHook('onRequest', async (request) => {
        if (request.routeOptions.config.public) return;
        const token = requestToken(request);
        const actor = token ? await auth.authenticate(token, request.ip) : null;
        if (!actor) throw new UnauthorizedError();
        if (actor.token && request.routeOptions.config.sessionOnly) {
          throw new ForbiddenError(undefined, "An API token cannot change its user's account.");
        }
        request.actor = { ...actor, ip: request.ip, workspaceId: await actingWorkspace(store.db, actor, request) };
      });
      answerJsonLd(api);
      networkPostbackUrls(api, store.db, config.publicUrl);
      trackerCampaignUrls(api, store.db, config.publicUrl);
      authRoutes(api, auth);
      openApiRoutes(api, registered, '1', { checkAnswers: parts.checkAnswers });
      apiTokenRoutes(api, parts.apiTokens);
      accountRoutes(api, {
        ...(parts.accountLimits ? { limits: parts.accountLimits } : {}),
        db: store.db,
        sessions: parts.sessions,
        mailer: parts.mailer,
        publicUrl: config.publicUrl,
        log: app.log,
        logLinks: config.logLinks,
      });
      userRoutes(api, new UsersService(store.db, parts.sessions));
      workspaceRoutes(api, new WorkspacesService(store.db));
      domainRoutes(api, parts.domains.service, parts.domains.issuer);
      roleRoutes(api, new RolesService(store.db));
      const targets = { allowPrivateTargets: config.allowPrivateTargets };
      const configServices = configRecordRoutes(
        api,
        store.db,
        onConfigChange,
        config.publicUrl,
        targets,
        (query, scope) => reports.run(query, scope),
      );
      historyRoutes(api, new HistoryService(store.db, configServices, targets));
      referenceDataRoutes(api);
      botProtectionRoutes(api, store.db, onConfigChange);
      backupRoutes(api, config);
      reportRoutes(api, reports, store.db);
      reportNoticeRoutes(api, engine);
      customMetricRoutes(api, store.db);
      reportViewRoutes(api, store.db);
      postbackLogRoutes(api, store.db);
      eventTableRoutes(api, store.db);
      eventReplayRoutes(api, store.db, engine);
      conversionRoutes(api, store.db, engine);
      currencyRateRoutes(api, store.db);
      costRoutes(api, store, engine);
      simulateRoutes(api, engine);
      optimizationRoutes(api, store.db, parts.tuner);
      alertRoutes(api, store.db, parts.notifier);
      monitorRoutes(api, store.db);
      clickTokenRoutes(api, store.db, onConfigChange);
      landerFileRoutes(api, {
        db: store.db,
        files: parts.landerFiles,
        limits: config.landers,
        onChange: onConfigChange,
      });
      ruleRoutes(api, store.db, parts.rules);
      importRoutes(api, store.db, configServices, parts.domains.service, targets);
      liveRoutes(api, engine.live);
    },
    { prefix: '/api' },
  );
}
