// Names of the config records a page of a log mentions (campaigns, postback events), read in one query
// and kept to a workspace: another workspace's record is never named. The postback log and the event
// tables (events/) label their rows with them.
import type { LoggedRecord } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { type Scope, scopeCondition } from '../store/scope.js';

export interface RecordRef {
  kind: string;
  external_id: string;
}

/** The stored records of `scope` a page mentions, with their workspace, in one query. */
async function storedRecords(
  db: Kysely<Database>,
  refs: RecordRef[],
  scope: Scope,
): Promise<Map<string, { name: string; workspace_id: number | null }>> {
  const ids = [...new Set(refs.map((ref) => ref.external_id))];
  const kinds = [...new Set(refs.map((ref) => ref.kind))];
  const records = new Map<string, { name: string; workspace_id: number | null }>();
  if (ids.length > 0) {
    const rows = await db
      .selectFrom('config_records')
      .select(['kind', 'external_id', 'name', 'workspace_id'])
      .where('kind', 'in', kinds)
      .where('external_id', 'in', ids)
      .where(scopeCondition(scope, 'workspace_id'))
      .execute();
    for (const row of rows) records.set(`${row.kind}\u0000${row.external_id}`, row);
  }
  return records;
}

/**
 * Names of the records a page mentions, in one query; a deleted record keeps its id, with no name.
 * Only the scope's records are named; another workspace's keeps its id, with no name.
 */
export async function recordNames(
  db: Kysely<Database>,
  refs: RecordRef[],
  scope: Scope,
): Promise<(ref: RecordRef) => LoggedRecord> {
  const records = await storedRecords(db, refs, scope);
  return (ref) => ({ ...ref, name: records.get(`${ref.kind}\u0000${ref.external_id}`)?.name ?? null });
}

/**
 * As recordNames, for a log row of `workspaceId`: a record of another workspace is not named at
 * all (null), so a refusal naming another workspace's click shows nothing of it. A row of no workspace
 * (seen by root only) names any.
 */
export async function namesInWorkspace(
  db: Kysely<Database>,
  refs: RecordRef[],
): Promise<(ref: RecordRef, workspaceId: number | null) => LoggedRecord | null> {
  // Every workspace's records are read, and each row is then shown its own workspace's only: a record of
  // another workspace must be told apart from a deleted one of the row's, which keeps its id.
  const records = await storedRecords(db, refs, { instance: true });
  return (ref, workspaceId) => {
    const record = records.get(`${ref.kind}\u0000${ref.external_id}`);
    if (workspaceId !== null && record && record.workspace_id !== workspaceId) return null;
    return { ...ref, name: record?.name ?? null };
  };
}
