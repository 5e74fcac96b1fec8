// Migration 0002_config_records, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

type AnyTable = CreateTableBuilder<string, string>;

function withId(table: AnyTable, dialect: Dialect): AnyTable {
  return table.addColumn('id', 'integer', (column: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement(),
  );
}

function withRecordColumns(table: AnyTable): AnyTable {
  return table
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('active'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull());
}

/**
 * Config entities (offers, flows, campaigns, …): one table, a row per record with the columns lists
 * filter and sort on, and the rest of the record as JSON text in `body`.
 */
export function configRecordsMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await withRecordColumns(
        withId(db.schema.createTable('config_records'), dialect)
          .addColumn('kind', 'text', (column) => column.notNull())
          .addColumn('external_id', 'text', (column) => column.notNull())
          .addColumn('workspace_id', 'integer', (column) => column.references('workspaces.id').onDelete('set null'))
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('body', 'text', (column) => column.notNull().defaultTo('{}'))
          .addUniqueConstraint('config_records_kind_external_id_key', ['kind', 'external_id']),
      ).execute();
      await db.schema
        .createIndex('config_records_kind_status_idx')
        .on('config_records')
        .columns(['kind', 'status'])
        .execute();
      await db.schema
        .createIndex('config_records_workspace_id_idx')
        .on('config_records')
        .column('workspace_id')
        .execute();
    },
  };
}
