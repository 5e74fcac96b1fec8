// Keeping a change. Called by each service that changes something, inside the change's own
// transaction where it has one, so a change and its history entry are written together.
import type { HistoryAction } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Who made a change, from where, acting in which workspace. */
export interface ChangeAuthor {
  userId: number | null;
  ip?: string | null;
  workspaceId: number | null;
  /** Who made it when no person did: `Rule: <name>`. */
  author?: string | null;
}

export interface KeptChange {
  action: HistoryAction;
  resource: string;
  recordId: string | number | null;
  recordName: string | null;
  before: unknown;
  after: unknown;
  restoredFrom?: number | null;
}

/** A config record as history keeps it: its name and status, and its body (the fields of its form). */
export function recordSnapshot(row: { name: string; status: string; body: string }): Record<string, unknown> {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(row.body) as Record<string, unknown>;
  } catch {
    // A body that does not read is kept as nothing rather than refusing the change.
  }
  return { name: row.name, status: row.status, ...body };
}

export async function keepChange(
  db: Kysely<Database>,
  author: ChangeAuthor,
  change: KeptChange,
  now: Date = new Date(),
): Promise<void> {
  await db
    .insertInto('history')
    .values({
      created_at: now.toISOString(),
      workspace_id: author.workspaceId,
      user_id: author.userId,
      ip: author.ip ?? null,
      action: change.action,
      resource: change.resource,
      record_id: change.recordId === null ? null : String(change.recordId),
      record_name: change.recordName,
      before: change.before === null || change.before === undefined ? null : JSON.stringify(change.before),
      after: change.after === null || change.after === undefined ? null : JSON.stringify(change.after),
      restored_from: change.restoredFrom ?? null,
      author: author.author ?? null,
    })
    .execute();
}
