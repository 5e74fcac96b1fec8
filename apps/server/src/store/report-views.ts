// Saved report views (packages/domain/src/report-views.ts). One row each: the reports screen's
// URL query string under a name, owned by a user in a workspace; names are unique per user and workspace.
import type { ColumnDefinitionBuilder, Generated, Kysely, Migration } from 'kysely';
import type { DatabaseDialect } from '../config.js';

export interface ReportViewTable {
  id: Generated<number>;
  workspace_id: number;
  user_id: number;
  name: string;
  params: string;
  created_at: string;
  updated_at: string;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** The report_views table. */
export function reportViewsMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('report_views')
        .addColumn('id', 'integer', (column: ColumnDefinitionBuilder) =>
          dialect === 'postgres'
            ? column.generatedByDefaultAsIdentity().primaryKey()
            : column.primaryKey().autoIncrement(),
        )
        .addColumn('workspace_id', 'integer', (column) =>
          column.notNull().references('workspaces.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('params', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('report_views_workspace_user_name_idx')
        .on('report_views')
        .columns(['workspace_id', 'user_id', 'name'])
        .unique()
        .execute();
    },
  };
}
