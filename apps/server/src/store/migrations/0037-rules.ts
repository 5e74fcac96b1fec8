// Migration 0037_rules, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0037: rules, rule_runs, rule_cooldowns. */
export function rulesMigration(dialect: Dialect): Migration {
  const id = (column: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement();
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('rules')
        .addColumn('id', 'integer', id)
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('last_run_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rules_workspace_idx').on('rules').columns(['workspace_id']).execute();
      await db.schema
        .createTable('rule_runs')
        .addColumn('id', 'integer', id)
        .addColumn('workspace_id', 'integer', (c) => c.notNull())
        .addColumn('rule_id', 'integer', (c) => c.notNull().references('rules.id').onDelete('cascade'))
        .addColumn('window_start', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('matched', 'integer', (c) => c.notNull())
        .addColumn('rows', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .execute();
      await db.schema
        .createIndex('rule_runs_rule_window_idx')
        .on('rule_runs')
        .columns(['rule_id', 'window_start'])
        .unique()
        .execute();
      await db.schema
        .createTable('rule_cooldowns')
        .addColumn('workspace_id', 'integer', (c) => c.notNull())
        .addColumn('rule_id', 'integer', (c) => c.notNull().references('rules.id').onDelete('cascade'))
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('acted_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('rule_cooldowns_pk', ['rule_id', 'value'])
        .execute();
    },
  };
}
