// Reads of a workspace's config records that the service's checks and computed fields share: a body
// parsed, the names (or mere existence) of the records some ids name, and the links a kind's records
// hold to each other (backup offers, segments). Each keeps to the one workspace it is given.
import type { ResourceDefinition } from '@switchyard/domain';
import type { Kysely, Transaction } from 'kysely';
import { NotFoundError } from '../../errors.js';
import type { ConfigRecordRow, Database } from '../../store/schema.js';
import type { NextLinks } from './chains.js';

export type Db = Kysely<Database> | Transaction<Database>;

/** Largest PostgreSQL `integer`; a larger id cannot name a record. */
const MAX_INTEGER_ID = 2_147_483_647;

/** The record `id` names among the workspace's records of `definition`'s kind; any other is not found. */
export async function findRecordRow(
  db: Db,
  definition: ResourceDefinition,
  workspaceId: number,
  id: string | number,
): Promise<ConfigRecordRow> {
  let query = db
    .selectFrom('config_records')
    .selectAll()
    .where('kind', '=', definition.name)
    .where('workspace_id', '=', workspaceId);
  query =
    definition.idField === 'id' ? query.where('id', '=', Number(id)) : query.where('external_id', '=', String(id));
  const row = await query.executeTakeFirst();
  if (!row) throw new NotFoundError();
  return row;
}

/** A stored body as an object ({} for anything else). */
export function parseBody(text: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(text);
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}

/** Ids (as strings) among `values` that name a record of `target` in the workspace, archived ones included. */
export async function existingIds(
  db: Db,
  workspaceId: number,
  target: ResourceDefinition,
  values: readonly (string | number)[],
): Promise<Set<string>> {
  return new Set((await recordNames(db, workspaceId, target, values)).keys());
}

/** Names of the workspace's records of `target` that `values` name, by id (as a string). */
export async function recordNames(
  db: Db,
  workspaceId: number,
  target: ResourceDefinition,
  values: readonly (string | number)[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (target.idField === 'id') {
    const ids = [...new Set(values.map(Number))].filter(
      (id) => Number.isInteger(id) && id >= 1 && id <= MAX_INTEGER_ID,
    );
    if (ids.length === 0) return names;
    const rows = await db
      .selectFrom('config_records')
      .select(['id', 'name'])
      .where('kind', '=', target.name)
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) names.set(String(row.id), row.name);
    return names;
  }
  // PostgreSQL text cannot hold NUL, and no external id does.
  const ids = [...new Set(values.map(String))].filter((id) => !id.includes('\0'));
  if (ids.length === 0) return names;
  const rows = await db
    .selectFrom('config_records')
    .select(['external_id', 'name'])
    .where('kind', '=', target.name)
    .where('workspace_id', '=', workspaceId)
    .where('external_id', 'in', ids)
    .execute();
  for (const row of rows) names.set(row.external_id, row.name);
  return names;
}

/** Loads the workspace's records of `kind` on demand and reads their outgoing links. */
export function kindLinks(
  db: Db,
  kind: string,
  workspaceId: number,
  linksOf: (body: Record<string, unknown>) => string[],
): NextLinks {
  return async (ids) => {
    const links = new Map<string, readonly string[]>();
    if (ids.length === 0) return links;
    const rows = await db
      .selectFrom('config_records')
      .select(['external_id', 'body'])
      .where('kind', '=', kind)
      .where('workspace_id', '=', workspaceId)
      .where('external_id', 'in', [...ids])
      .execute();
    for (const row of rows) links.set(row.external_id, linksOf(parseBody(row.body)));
    return links;
  };
}

/** Every record of `kind` in the workspace with its links, loaded once for a whole list. */
export async function allKindLinks(
  db: Db,
  kind: string,
  workspaceId: number,
  linksOf: (body: Record<string, unknown>) => string[],
): Promise<{ next: NextLinks; rows: Map<string, Record<string, unknown>> }> {
  const rows = await db
    .selectFrom('config_records')
    .select(['external_id', 'body'])
    .where('kind', '=', kind)
    .where('workspace_id', '=', workspaceId)
    .execute();
  const bodies = new Map(rows.map((row) => [row.external_id, parseBody(row.body)]));
  const links = new Map([...bodies].map(([id, body]) => [id, linksOf(body)] as const));
  const next: NextLinks = async (ids) => new Map(ids.flatMap((id) => (links.has(id) ? [[id, links.get(id)!]] : [])));
  return { next, rows: bodies };
}
