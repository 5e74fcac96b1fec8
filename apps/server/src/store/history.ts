// The change history, one row per kept change (packages/domain/src/history.ts). `before` and
// `after` are JSON texts of the whole record (null where there is none). Read by workspace and time, and
// by one record's resource and id.
import type { ColumnDefinitionBuilder, Generated, Kysely, Migration } from 'kysely';
import type { DatabaseDialect } from '../config.js';

export interface HistoryTable {
  id: Generated<number>;
  created_at: string;
  /** Null for what belongs to no workspace (users, account settings, logins). */
  workspace_id: number | null;
  user_id: number | null;
  ip: string | null;
  action: string;
  resource: string;
  record_id: string | null;
  record_name: string | null;
  before: string | null;
  after: string | null;
  restored_from: number | null;
  /** Set when no person made the change: `Rule: <name>` (0038). */
  author: string | null;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0016: history. */
export function historyMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('history')
        .addColumn('id', 'integer', (column: ColumnDefinitionBuilder) =>
          dialect === 'postgres'
            ? column.generatedByDefaultAsIdentity().primaryKey()
            : column.primaryKey().autoIncrement(),
        )
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('workspace_id', 'integer')
        .addColumn('user_id', 'integer')
        .addColumn('ip', 'text')
        .addColumn('action', 'text', (column) => column.notNull())
        .addColumn('resource', 'text', (column) => column.notNull())
        .addColumn('record_id', 'text')
        .addColumn('record_name', 'text')
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .addColumn('restored_from', 'integer')
        .execute();
      await db.schema
        .createIndex('history_workspace_time_idx')
        .on('history')
        .columns(['workspace_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('history_record_idx')
        .on('history')
        .columns(['resource', 'record_id', 'created_at'])
        .execute();
    },
  };
}
