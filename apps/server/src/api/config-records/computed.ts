// What the API answers for a stored config record: its id field, name, body and common fields (toRecord),
// and the fields the server computes for some kinds — an offer's backup chain and smallest cap, a
// segment's chain, the names of the records a list's rows refer to (§3.1, §7.2).
import { getResource, type ResourceDefinition } from '@switchyard/domain';
import type { ConfigRecordRow } from '../../store/schema.js';
import { backupLinks, followChain, segmentLinks } from './chains.js';
import { allKindLinks, type Db, parseBody, recordNames } from './record-reads.js';
import { referenceValues } from './references.js';

/** A config record as the API answers it: id field, name, form fields, common fields, computed fields. */
export type ConfigRecord = Record<string, unknown>;

/** Offers follow `backup_offer_external_id` to records of their own kind. */
export function hasBackupChain(definition: ResourceDefinition): boolean {
  return (definition.references ?? []).some(
    (reference) => reference.field === 'backup_offer_external_id' && reference.resource === definition.name,
  );
}

/** Segments name other segments of their own kind in their condition. */
export function hasSegmentChain(definition: ResourceDefinition): boolean {
  return definition.withChainApiPath !== undefined;
}

export function toRecord(definition: ResourceDefinition, row: ConfigRecordRow): ConfigRecord {
  const id = definition.idField === 'id' ? { id: row.id } : { external_id: row.external_id };
  return {
    ...id,
    name: row.name,
    ...parseBody(row.body),
    workspace_id: row.workspace_id,
    status: row.status === 'archived' ? 'archived' : 'active',
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A single record with what the server computes for its kind. */
export async function decorated(
  db: Db,
  definition: ResourceDefinition,
  workspaceId: number,
  row: ConfigRecordRow,
): Promise<ConfigRecord> {
  const record = toRecord(definition, row);
  if (hasBackupChain(definition)) return (await withBackupChains(db, definition.name, workspaceId, [record]))[0]!;
  if (hasSegmentChain(definition)) return (await withSegmentChains(db, definition.name, workspaceId, [record]))[0]!;
  return record;
}

/**
 * §3.1 offer extras: `backup_offers_chain` (the external ids that follow backup_offer_external_id) and
 * `min_daily_cap` (the smallest non-zero daily cap of the offer and its chain; 0 when none is capped).
 */
export async function withBackupChains(
  db: Db,
  kind: string,
  workspaceId: number,
  list: ConfigRecord[],
): Promise<ConfigRecord[]> {
  if (list.length === 0) return list;
  const { next, rows } = await allKindLinks(db, kind, workspaceId, backupLinks);
  return Promise.all(
    list.map(async (record) => {
      const chain = (await followChain(backupLinks(record), next)).filter((id) => id !== record.external_id);
      const caps = [record, ...chain.map((id) => rows.get(id) ?? {})]
        .map((body) => Number(body.daily_cap ?? 0))
        .filter((cap) => Number.isFinite(cap) && cap > 0);
      return { ...record, backup_offers_chain: chain, min_daily_cap: caps.length > 0 ? Math.min(...caps) : 0 };
    }),
  );
}

/** `segments_chain`, the segments a segment refers to directly or through others. */
export async function withSegmentChains(
  db: Db,
  kind: string,
  workspaceId: number,
  list: ConfigRecord[],
): Promise<ConfigRecord[]> {
  if (list.length === 0) return list;
  const { next } = await allKindLinks(db, kind, workspaceId, segmentLinks);
  return Promise.all(
    list.map(async (record) => ({
      ...record,
      segments_chain: (await followChain(segmentLinks(record), next)).filter((id) => id !== record.external_id),
    })),
  );
}

/** `flow_external_id` → `flow_name`, `event_id` → `event_name`. */
function relationNameField(field: string): string {
  return field.replace(/(_external_id|_id)$/, '_name');
}

/**
 * §7.2 `with_relations`: the name of each record a top-level reference names, beside it
 * (`flow_external_id` → `flow_name`, `traffic_source_external_id` → `traffic_source_name`).
 */
export async function withRelationNames(
  db: Db,
  definition: ResourceDefinition,
  workspaceId: number,
  list: ConfigRecord[],
): Promise<ConfigRecord[]> {
  const direct = (definition.references ?? []).filter((reference) => !reference.field.includes('*'));
  if (list.length === 0 || direct.length === 0) return list;
  const names = new Map<string, Map<string, string>>();
  for (const reference of direct) {
    const target = getResource(reference.resource);
    const ids = list.flatMap((record) => referenceValues(record, reference).map((entry) => entry.value));
    names.set(reference.field, await recordNames(db, workspaceId, target, ids));
  }
  return list.map((record) => {
    const named = { ...record };
    for (const reference of direct) {
      const value = record[reference.field];
      named[relationNameField(reference.field)] =
        value === null || value === undefined ? null : (names.get(reference.field)?.get(String(value)) ?? null);
    }
    return named;
  });
}
