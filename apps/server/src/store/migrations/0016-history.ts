// Migration 0016_history, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0016: history. */
export function historyMigration(dialect: Dialect): Migration {
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
