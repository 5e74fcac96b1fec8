// Migration 0042_imports, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0042: imports, import_mappings. */
export function importsMigration(dialect: Dialect): Migration {
  const id = (column: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement();
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('imports')
        .addColumn('id', 'integer', id)
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('done', 'integer', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('result', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('created_by', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema.createIndex('imports_workspace_idx').on('imports').columns(['workspace_id']).execute();
      await db.schema
        .createTable('import_mappings')
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('old_kind', 'text', (c) => c.notNull())
        .addColumn('old_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('form_hash', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('import_mappings_pk', ['workspace_id', 'source', 'old_kind', 'old_id'])
        .execute();
    },
  };
}
