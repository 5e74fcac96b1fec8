// Migration 0036_monitors, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

const identity = (dialect: Dialect) => (column: ColumnDefinitionBuilder) =>
  dialect === 'postgres' ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement();

export function monitorsMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('workspace_monitors')
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('monitor', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('workspace_monitors_pk', ['workspace_id', 'monitor'])
        .execute();
      await db.schema
        .createTable('monitor_incidents')
        .addColumn('id', 'integer', identity(dialect))
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('monitor', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('opened_at', 'text', (c) => c.notNull())
        .addColumn('closed_at', 'text')
        .execute();
      await db.schema
        .createIndex('monitor_incidents_open_idx')
        .on('monitor_incidents')
        .columns(['workspace_id', 'monitor', 'subject', 'closed_at'])
        .execute();
    },
  };
}
