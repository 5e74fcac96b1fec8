// Rules (packages/domain/src/rules.ts), the log of their runs and when each rule last acted on each row
// value (its cooldown). All three are workspace-owned. A run is unique per (rule, window start), so two
// nodes never run one rule twice for one window.
import type { ColumnDefinitionBuilder, Generated, Kysely, Migration } from 'kysely';
import type { DatabaseDialect } from '../config.js';

export interface RuleTable {
  id: Generated<number>;
  workspace_id: number;
  name: string;
  /** JSON: the rule's form but its name and enabled flag. */
  body: string;
  enabled: number;
  last_run_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface RuleRunTable {
  id: Generated<number>;
  workspace_id: number;
  rule_id: number;
  /** The run's slot: its time rounded down to the rule's schedule. */
  window_start: string;
  started_at: string;
  matched: number;
  /** JSON: RuleRowOutcome[]. */
  rows: string;
  error: string | null;
}

export interface RuleCooldownTable {
  workspace_id: number;
  rule_id: number;
  value: string;
  acted_at: string;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0037: rules, rule_runs, rule_cooldowns. */
export function rulesMigration(dialect: DatabaseDialect): Migration {
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

/** 0038: history entries made by a rule name it (`author`), beside or instead of a user. */
export function historyAuthorMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('history').addColumn('author', 'text').execute();
    },
  };
}
