// Migration 0009_workspace_scope, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { Kysely, Migration } from 'kysely';

// Every record belongs to one workspace. Config records made before workspaces scoped them
// (or by a creator who belonged to none), and conversions and postback log rows stored before 0008 gave
// them a workspace, have none: they go to the default workspace, the one with the lowest id. A database
// with no workspace yet (a fresh one, before the seed creates "Default") has nothing to move.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** The tables whose rows without a workspace go to the default one. */
const SCOPED_TABLES = ['config_records', 'conversions', 'postback_log'] as const;

/** Gives every row of SCOPED_TABLES without a workspace the default one; safe to run again. */
async function assignDefaultWorkspace(db: AnyDb): Promise<void> {
  const first = await db.selectFrom('workspaces').select('id').orderBy('id').limit(1).executeTakeFirst();
  if (!first) return;
  for (const table of SCOPED_TABLES) {
    await db.updateTable(table).set({ workspace_id: first.id }).where('workspace_id', 'is', null).execute();
  }
}

/** 0009: rows without a workspace go to the default one; lists read a kind within a workspace. */
export function workspaceScopeMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await assignDefaultWorkspace(db);
      await db.schema
        .createIndex('config_records_workspace_kind_status_idx')
        .on('config_records')
        .columns(['workspace_id', 'kind', 'status'])
        .execute();
    },
  };
}
