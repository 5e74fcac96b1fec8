// Migration 0041_lander_files, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0041: lander_files. */
export function landerFilesMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('lander_files')
        .addColumn('workspace_id', 'integer', (column: ColumnDefinitionBuilder) =>
          column.notNull().references('workspaces.id').onDelete('cascade'),
        )
        .addColumn('lander_external_id', 'text', (column) => column.notNull())
        .addColumn('path', 'text', (column) => column.notNull())
        .addColumn('content_type', 'text', (column) => column.notNull())
        .addColumn('size', 'integer', (column) => column.notNull())
        .addColumn('sha256', 'text', (column) => column.notNull())
        .addColumn('content', dialect === 'postgres' ? 'bytea' : 'blob')
        .addColumn('folder', 'text')
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('lander_files_pkey', ['workspace_id', 'lander_external_id', 'path'])
        .execute();
    },
  };
}
