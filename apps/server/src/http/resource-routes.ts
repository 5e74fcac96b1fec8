import { type ListResponse, type ResourceDefinition, type TListQuery, ZListQuery } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { authorize } from './guard.js';
import { figureOrder } from './list-order.js';
import { parseInput } from './parse.js';

export type RecordId = number | string;

/**
 * What a resource module offers the routes. `create`/`update` receive the body already parsed with the
 * definition's `form` (or `updateForm`); a method left out means the route is not registered.
 */
export interface ResourceService<TRecord, TCreate = never, TUpdate = TCreate> {
  /** `rawQuery` carries a resource's own list flags (§7.2 `with_backup_chain`, `with_relations`). */
  list(query: TListQuery, actor: Actor, rawQuery: Record<string, unknown>): Promise<ListResponse<TRecord>>;
  get(id: RecordId, actor: Actor): Promise<TRecord>;
  create?(input: TCreate, actor: Actor): Promise<TRecord>;
  update?(id: RecordId, input: TUpdate, actor: Actor): Promise<TRecord>;
  /** `force`: archive a record still in use (refused with 409 otherwise, where it matters). */
  archive?(id: RecordId, actor: Actor, options?: { force?: boolean }): Promise<TRecord>;
  restore?(id: RecordId, actor: Actor): Promise<TRecord>;
  /** What still uses the record, for the archive confirmation. */
  usage?(id: RecordId, actor: Actor): Promise<unknown>;
}

/** `?force=true` (or 1): the client archives a record still in use knowingly. */
function forced(query: unknown): boolean {
  const value = (query as Record<string, unknown> | undefined)?.force;
  return value === 'true' || value === '1';
}

/** Largest id a PostgreSQL `integer` holds; anything above cannot name a record. */
const MAX_INTEGER_ID = 2_147_483_647;
const EXTERNAL_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function parseId(definition: ResourceDefinition, raw: string): RecordId {
  if (definition.idField === 'external_id') {
    if (!EXTERNAL_ID_PATTERN.test(raw)) throw new NotFoundError();
    return raw;
  }
  const id = /^[0-9]{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(id) || id < 1 || id > MAX_INTEGER_ID) throw new NotFoundError();
  return id;
}

/**
 * Registers a resource's routes from its registry definition (§7.2, §7.3):
 * list and get always; create and update when it has a form; archive and restore when archivable.
 */
export function resourceRoutes<TRecord, TCreate, TUpdate>(
  app: FastifyInstance,
  definition: ResourceDefinition,
  service: ResourceService<TRecord, TCreate, TUpdate>,
): void {
  const { section, resource } = definition.permission;
  const base = `/${definition.apiPath}`;
  type IdParams = { Params: { id: string } };

  app.get(base, async (request) => {
    const actor = authorize(request, section, resource, 'get');
    const rawQuery = (request.query ?? {}) as Record<string, unknown>;
    const query = parseInput(ZListQuery, rawQuery);
    figureOrder(definition, query, rawQuery);
    return service.list(query, actor, rawQuery);
  });

  app.get<IdParams>(`${base}/:id`, async (request) => {
    const actor = authorize(request, section, resource, 'get');
    return service.get(parseId(definition, request.params.id), actor);
  });

  const { create, update, archive, restore } = service;
  if (definition.form && create) {
    const form = definition.form;
    app.post(base, async (request, reply) => {
      const actor = authorize(request, section, resource, 'create');
      const record = await create.call(service, parseInput(form, request.body) as TCreate, actor);
      return reply.code(201).send(record);
    });
  }

  const updateForm = definition.updateForm ?? definition.form;
  if (updateForm && update) {
    app.put<IdParams>(`${base}/:id`, async (request) => {
      const actor = authorize(request, section, resource, 'update');
      const id = parseId(definition, request.params.id);
      return update.call(service, id, parseInput(updateForm, request.body) as TUpdate, actor);
    });
  }

  if (definition.archivable && archive && restore) {
    app.put<IdParams>(`${base}/:id/archive`, async (request) => {
      const actor = authorize(request, section, resource, 'archive');
      return archive.call(service, parseId(definition, request.params.id), actor, { force: forced(request.query) });
    });
    if (service.usage) {
      const { usage } = service;
      app.get<IdParams>(`${base}/:id/usage`, async (request) => {
        const actor = authorize(request, section, resource, 'get');
        return usage.call(service, parseId(definition, request.params.id), actor);
      });
    }
    app.put<IdParams>(`${base}/:id/restore`, async (request) => {
      const actor = authorize(request, section, resource, 'archive');
      return restore.call(service, parseId(definition, request.params.id), actor);
    });
  }
}
