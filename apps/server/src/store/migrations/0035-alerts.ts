// Migration 0035_alerts, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

const identity = (dialect: Dialect) => (column: ColumnDefinitionBuilder) =>
  dialect === 'postgres' ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement();

export function alertsMigration(dialect: Dialect): Migration {
  const id = identity(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('notifications')
        .addColumn('id', 'integer', id)
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('link', 'text')
        .addColumn('read_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notifications_user_idx')
        .on('notifications')
        .columns(['user_id', 'workspace_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('notification_channels')
        .addColumn('id', 'integer', id)
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('notification_deliveries')
        .addColumn('id', 'integer', id)
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('channel_id', 'integer', (c) =>
          c.notNull().references('notification_channels.id').onDelete('cascade'),
        )
        .addColumn('notification_id', 'integer', (c) => c.references('notifications.id').onDelete('set null'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notification_deliveries_channel_idx')
        .on('notification_deliveries')
        .columns(['channel_id', 'created_at'])
        .execute();
    },
  };
}
