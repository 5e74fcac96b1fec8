// Migration 0011_custom_metrics, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0011: the custom_metrics table. */
export function customMetricsMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('custom_metrics')
        .addColumn('id', 'integer', (column: ColumnDefinitionBuilder) =>
          dialect === 'postgres'
            ? column.generatedByDefaultAsIdentity().primaryKey()
            : column.primaryKey().autoIncrement(),
        )
        .addColumn('workspace_id', 'integer', (column) =>
          column.notNull().references('workspaces.id').onDelete('cascade'),
        )
        .addColumn('key', 'text', (column) => column.notNull())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('formula', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('custom_metrics_workspace_key_idx')
        .on('custom_metrics')
        .columns(['workspace_id', 'key'])
        .unique()
        .execute();
    },
  };
}
