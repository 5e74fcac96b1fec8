// `POST /api/imports` (`?dry_run=true` writes nothing) and `GET /api/imports/{id}`.
// Permission: `/tracker/import/create` to run one, `/tracker/import/get` to read one, and an import also
// needs the rights to create and change every kind it writes, checked before anything is read.
import {
  type Action,
  can,
  getResource,
  type ImportSource,
  type ResourceName,
  ZBinomExport,
  ZImportQuery,
  ZImportRequest,
  ZKeitaroExport,
} from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ConfigRecordsService } from '../api/config-records/service.js';
import { workspaceOf } from '../auth/workspace.js';
import type { DomainsService } from '../domains/service.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { authorize } from '../http/guard.js';
import type { TargetOptions } from '../http/outbound-targets.js';
import { parseInput } from '../http/parse.js';
import type { Database } from '../store/schema.js';
import { binomPlan } from './binom.js';
import { readBinom } from './binom-fetch.js';
import { readKeitaro } from './fetch.js';
import { keitaroPlan } from './keitaro.js';
import { ImportService } from './service.js';

/** An export of a few hundred campaigns is larger than the API's usual 1 MiB. */
const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;

const WRITTEN: readonly ResourceName[] = [
  'affiliate-networks',
  'traffic-sources',
  'tracker-offers',
  'tracker-landers',
  'tracker-flows',
  'tracker-campaigns',
  'domains',
];

export function importRoutes(
  app: FastifyInstance,
  db: Kysely<Database>,
  services: ReadonlyMap<ResourceName, ConfigRecordsService>,
  domains: DomainsService,
  targets: TargetOptions,
): void {
  const imports = new ImportService(db, services, domains);

  // Answered when done (200), the run kept under its id; a dry run keeps nothing (id null).
  app.post('/imports', { bodyLimit: IMPORT_BODY_LIMIT }, async (request) => {
    const actor = authorize(request, 'tracker', 'import', 'create');
    for (const kind of WRITTEN) {
      const { section, resource } = getResource(kind).permission;
      for (const action of ['create', 'update'] as Action[]) {
        if (!can(actor, section, resource, action)) {
          throw new ForbiddenError(undefined, `An import needs the right to ${action} ${kind.replace('-', ' ')}.`);
        }
      }
    }
    workspaceOf(actor);
    const { dry_run: dryRun } = parseInput(ZImportQuery, request.query);
    const input = parseInput(ZImportRequest, request.body);
    const from: ImportSource = input.from;
    if (from === 'binom') {
      const raw = 'file' in input ? input.file : await readBinom(input.url, input.api_key, targets);
      const { file } = parseInput(z.object({ file: ZBinomExport }), { file: raw });
      return imports.run(binomPlan(file), from, actor, dryRun);
    }
    const raw = 'file' in input ? input.file : await readKeitaro(input.url, input.api_key, targets);
    const { file } = parseInput(z.object({ file: ZKeitaroExport }), { file: raw });
    return imports.run(keitaroPlan(file), from, actor, dryRun);
  });

  app.get<{ Params: { id: string } }>('/imports/:id', async (request) => {
    const actor = authorize(request, 'tracker', 'import', 'get');
    const id = Number(request.params.id);
    if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) throw new NotFoundError();
    return imports.get(id, { workspaceId: workspaceOf(actor) });
  });
}
