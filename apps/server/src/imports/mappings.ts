// Where an import left each old record: `import_mappings` rows, per workspace, tracker and old kind+id,
// naming the record made and the hash of the form last written. A mapping whose record was deleted since
// is stale: the record is imported anew.
import type { ImportSource } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { scopeCondition } from '../store/scope.js';
import type { PlannedRecord } from './plan.js';

export type Mapping = { kind: string; external_id: string; form_hash: string };

/** The id another run's mapping gives `record`, taken as this run's. */
export async function adoptMapping(
  db: Kysely<Database>,
  scope: { workspaceId: number },
  source: ImportSource,
  record: PlannedRecord,
  ids: Map<string, string>,
) {
  const row = await db
    .selectFrom('import_mappings')
    .select('external_id')
    .where('source', '=', source)
    .where('old_kind', '=', record.oldKind)
    .where('old_id', '=', record.oldId)
    .where(scopeCondition(scope, 'workspace_id'))
    .executeTakeFirst();
  if (row) ids.set(`${record.oldKind}:${record.oldId}`, row.external_id);
}

/** Domain mappings whose domain still exists. */
export async function liveDomainMappings(
  db: Kysely<Database>,
  scope: { workspaceId: number },
  source: ImportSource,
): Promise<Map<string, Mapping>> {
  const rows = await db
    .selectFrom('import_mappings')
    .select(['old_kind', 'old_id', 'kind', 'external_id', 'form_hash'])
    .where('source', '=', source)
    .where('old_kind', '=', 'domain')
    .where(scopeCondition(scope, 'workspace_id'))
    .execute();
  const ids = rows.map((row) => Number(row.external_id)).filter((id) => Number.isSafeInteger(id));
  const found = ids.length
    ? await db
        .selectFrom('domains')
        .select('id')
        .where('id', 'in', ids)
        .where(scopeCondition(scope, 'workspace_id'))
        .execute()
    : [];
  const live = new Set(found.map((row) => String(row.id)));
  return new Map(rows.filter((row) => live.has(row.external_id)).map((row) => [`domain:${row.old_id}`, row] as const));
}

/** The mappings whose record still exists (one gone is imported anew). */
export async function liveMappings(
  db: Kysely<Database>,
  scope: { workspaceId: number },
  source: ImportSource,
): Promise<{ live: Map<string, Mapping>; stale: Map<string, string> }> {
  const rows = await db
    .selectFrom('import_mappings')
    .select(['old_kind', 'old_id', 'kind', 'external_id', 'form_hash'])
    .where('source', '=', source)
    .where(scopeCondition(scope, 'workspace_id'))
    .execute();
  const existing = new Set<string>();
  const ids = rows.map((row) => row.external_id);
  for (let start = 0; start < ids.length; start += 500) {
    const found = await db
      .selectFrom('config_records')
      .select(['kind', 'external_id'])
      .where('external_id', 'in', ids.slice(start, start + 500))
      .where(scopeCondition(scope, 'workspace_id'))
      .execute();
    for (const row of found) existing.add(`${row.kind}:${row.external_id}`);
  }
  const live = new Map<string, Mapping>();
  const stale = new Map<string, string>();
  for (const row of rows) {
    const key = `${row.old_kind}:${row.old_id}`;
    if (existing.has(`${row.kind}:${row.external_id}`)) live.set(key, row);
    else stale.set(key, row.external_id);
  }
  return { live, stale };
}
