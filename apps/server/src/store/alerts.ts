// Notifications (the bell), each user's channels and the log of what was sent through them. All three
// are workspace-owned; a user sees and changes only their own.
import type { ColumnDefinitionBuilder, Generated, Kysely, Migration } from 'kysely';
import type { DatabaseDialect } from '../config.js';

export interface NotificationTable {
  id: Generated<number>;
  workspace_id: number;
  user_id: number;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  read_at: string | null;
  created_at: string;
}

export interface NotificationChannelTable {
  id: Generated<number>;
  workspace_id: number;
  user_id: number;
  kind: string;
  name: string;
  /** JSON: the kind's fields, its secret included. */
  settings: string;
  /** JSON: the alert kinds it carries; [] for every kind. */
  events: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}

export interface NotificationDeliveryTable {
  id: Generated<number>;
  workspace_id: number;
  channel_id: number;
  notification_id: number | null;
  status: string;
  attempts: number;
  error: string | null;
  created_at: string;
  updated_at: string;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

const identity = (dialect: DatabaseDialect) => (column: ColumnDefinitionBuilder) =>
  dialect === 'postgres' ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement();

export function alertsMigration(dialect: DatabaseDialect): Migration {
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

export interface WorkspaceMonitorTable {
  workspace_id: number;
  monitor: string;
  enabled: number;
}

/** An incident a monitor has told about: open until what it watches is well again, so it tells once. */
export interface MonitorIncidentTable {
  id: Generated<number>;
  workspace_id: number;
  monitor: string;
  /** What it is about: an offer's or campaign's id, a URL, or '' for the workspace. */
  subject: string;
  opened_at: string;
  closed_at: string | null;
}

export function monitorsMigration(dialect: DatabaseDialect): Migration {
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
