// Imports from other trackers, and what each old record became. Both workspace-owned. A
// mapping is unique per (workspace, tracker, old kind, old id), so running an import again updates the
// record it made instead of making another; `form_hash` is the form last written, so an identical run
// changes nothing.
import type { ColumnDefinitionBuilder, Generated, Kysely, Migration } from 'kysely';
import type { DatabaseDialect } from '../config.js';

export interface ImportTable {
  id: Generated<number>;
  workspace_id: number;
  source: string;
  status: string;
  done: number;
  total: number;
  /** JSON: { summary, records, left_out }. */
  result: string;
  error: string | null;
  created_by: number | null;
  created_at: string;
  finished_at: string | null;
}

export interface ImportMappingTable {
  workspace_id: number;
  source: string;
  old_kind: string;
  old_id: string;
  kind: string;
  external_id: string;
  form_hash: string;
  updated_at: string;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0042: imports, import_mappings. */
export function importsMigration(dialect: DatabaseDialect): Migration {
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
