import {
  CAMPAIGN_KINDS,
  CLONABLE,
  FLOW_OF_CAMPAIGN,
  getResource,
  RESOURCES,
  type ResourceDefinition,
  type ResourceName,
  ZListQuery,
} from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { authorize } from '../../http/guard.js';
import { isFigure, noFigures } from '../../http/list-order.js';
import { type TargetOptions, withOutboundTargetCheck } from '../../http/outbound-targets.js';
import { parseInput } from '../../http/parse.js';
import { parseId, resourceRoutes } from '../../http/resource-routes.js';
import type { Database } from '../../store/schema.js';
import { bulkRoute } from './bulk.js';
import { type RunReport, withListStats } from './list-stats.js';
import { type ConfigChangeListener, ConfigRecordsService } from './service.js';
import { testPostbackRoutes } from './test-postback.js';

/** Resources with their own tables and modules; every other registry resource is a config record. */
const OWN_MODULES = new Set(['workspaces', 'users', 'roles', 'domains']);

export const CONFIG_RESOURCES: readonly ResourceDefinition[] = RESOURCES.filter(
  (definition) => !OWN_MODULES.has(definition.name),
);

/**
 * §7.2, §7.3: the routes of every config entity, from the registry. `publicUrl` (SWITCHYARD_PUBLIC_URL)
 * names the dashboard's origin, whose images rich text keeps.
 */
export function configRecordRoutes(
  app: FastifyInstance,
  db: Kysely<Database>,
  onChange?: ConfigChangeListener,
  publicUrl?: string,
  /** SWITCHYARD_ALLOW_PRIVATE_TARGETS: outbound postback URLs are checked on save unless it is set. */
  targets: TargetOptions = { allowPrivateTargets: false },
  /** Runs the report behind the lists' `?stats=<period>` figures. */
  runReport?: RunReport,
): ReadonlyMap<ResourceName, ConfigRecordsService> {
  testPostbackRoutes(app, targets);
  const ownOrigin = publicUrl === undefined ? undefined : new URL(publicUrl).origin;
  const services = new Map<ResourceName, ConfigRecordsService>();
  for (const definition of CONFIG_RESOURCES) {
    services.set(definition.name, new ConfigRecordsService(db, definition, onChange, ownOrigin));
  }
  for (const definition of CONFIG_RESOURCES) {
    const service = services.get(definition.name)!;
    resourceRoutes(
      app,
      definition,
      withListStats(withOutboundTargetCheck(service, definition.name, targets), definition, runReport),
    );
    if (CLONABLE.has(definition.name)) cloneRoute(app, definition, services);
    bulkRoute(app, db, definition, service);
    const { withChainApiPath } = definition;
    if (withChainApiPath) {
      const { section, resource } = definition.permission;
      app.get(`/${withChainApiPath}`, async (request) => {
        const actor = authorize(request, section, resource, 'get');
        const query = parseInput(ZListQuery, request.query);
        // The chain's list shows no figures to sort by.
        if (isFigure(query.order_by)) throw noFigures(query.order_by);
        return service.listWithChain(query, actor);
      });
    }
  }
  return services;
}

/**
 * `POST /api/{resource}/{id}/clone` answers `201` with the copy; a campaign with `{ "with_flow":
 * true }` (or `?with_flow=true`) gets a copy of its flow as well, which needs the flow's rights too.
 * A copy shows the whole source, so cloning needs the right to read the source (`get`) as well
 * as to create one; checked before the source is looked up, so a refusal tells nothing of it.
 */
function cloneRoute(
  app: FastifyInstance,
  definition: ResourceDefinition,
  services: ReadonlyMap<ResourceName, ConfigRecordsService>,
): void {
  const { section, resource } = definition.permission;
  const service = services.get(definition.name)!;
  app.post<{ Params: { id: string }; Querystring: { with_flow?: string } }>(
    `/${definition.apiPath}/:id/clone`,
    async (request, reply) => {
      authorize(request, section, resource, 'get');
      const actor = authorize(request, section, resource, 'create');
      const id = parseId(definition, request.params.id);
      const body = (request.body ?? {}) as { with_flow?: unknown };
      const withFlow = body.with_flow === true || request.query.with_flow === 'true';
      const flowKind = FLOW_OF_CAMPAIGN[definition.name];
      if (!withFlow || !flowKind || !CAMPAIGN_KINDS.has(definition.name)) {
        return reply.code(201).send(await service.clone(id, actor));
      }
      const flows = services.get(flowKind)!;
      const flowDefinition = getResource(flowKind);
      authorize(request, flowDefinition.permission.section, flowDefinition.permission.resource, 'get');
      authorize(request, flowDefinition.permission.section, flowDefinition.permission.resource, 'create');
      const original = await service.get(id, actor);
      const flowCopy = await flows.clone(String(original.flow_external_id), actor);
      try {
        const copy = await service.clone(id, actor, { flowExternalId: String(flowCopy.external_id) });
        return reply.code(201).send({ ...copy, flow: flowCopy });
      } catch (error) {
        await flows.discard(String(flowCopy.external_id), actor);
        throw error;
      }
    },
  );
}
