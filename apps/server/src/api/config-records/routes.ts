import { RESOURCES, type ResourceDefinition, ZListQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { type TargetOptions, withOutboundTargetCheck } from '../../http/outbound-targets.js';
import type { Database } from '../../store/schema.js';
import { authorize } from '../guard.js';
import { parseInput } from '../parse.js';
import { resourceRoutes } from '../resource-routes.js';
import { type ConfigChangeListener, ConfigRecordsService } from './service.js';
import { testPostbackRoutes } from './test-postback.js';

/** Resources with their own tables and modules; every other registry resource is a config record. */
const OWN_MODULES = new Set(['workspaces', 'users', 'roles']);

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
): void {
  testPostbackRoutes(app, targets);
  const ownOrigin = publicUrl === undefined ? undefined : new URL(publicUrl).origin;
  for (const definition of CONFIG_RESOURCES) {
    const service = new ConfigRecordsService(db, definition, onChange, ownOrigin);
    resourceRoutes(app, definition, withOutboundTargetCheck(service, definition.name, targets));
    const { withChainApiPath } = definition;
    if (withChainApiPath) {
      const { section, resource } = definition.permission;
      app.get(`/${withChainApiPath}`, async (request) => {
        const actor = authorize(request, section, resource, 'get');
        return service.listWithChain(parseInput(ZListQuery, request.query), actor);
      });
    }
  }
}
