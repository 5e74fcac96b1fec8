// Custom metrics, formulas over a report's figures that an operator defines for their workspace
// (packages/domain/src/custom-metrics.ts parses and evaluates them). One row each: a key unique in its
// workspace (`cm_rpm`), which is the metric's name in report rows and in `order_by`.
import type { ColumnDefinitionBuilder, Generated, Kysely, Migration } from 'kysely';
import type { DatabaseDialect } from '../config.js';

export interface CustomMetricTable {
  id: Generated<number>;
  workspace_id: number;
  key: string;
  name: string;
  formula: string;
  created_at: string;
  updated_at: string;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0011: the custom_metrics table. */
export function customMetricsMigration(dialect: DatabaseDialect): Migration {
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
