// Migration 0004_tracker_events, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

type AnyTable = CreateTableBuilder<string, string>;

/** The custom variable columns of both event tables, as they were. */
const VAR_COLUMNS = ['var1', 'var2', 'var3', 'var4', 'var5', 'var6', 'var7', 'var8', 'var9', 'var10'] as const;

function eventTable(db: AnyDb, name: string, dialect: Dialect): AnyTable {
  return db.schema
    .createTable(name)
    .addColumn('id', 'integer', (column: ColumnDefinitionBuilder) =>
      dialect === 'postgres' ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement(),
    );
}

function withRoutingColumns(table: AnyTable): AnyTable {
  let result = table
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('campaign_external_id', 'text', (column) => column.notNull())
    .addColumn('flow_external_id', 'text')
    .addColumn('path_group_id', 'text')
    .addColumn('path_id', 'text')
    .addColumn('offer_external_id', 'text')
    .addColumn('traffic_source_external_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('country', 'text')
    .addColumn('device', 'text')
    .addColumn('platform', 'text')
    .addColumn('browser', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('subaff', 'text');
  for (const name of VAR_COLUMNS) result = result.addColumn(name, 'text');
  return result
    .addColumn('vars', 'text', (column) => column.notNull().defaultTo('{}'))
    .addColumn('is_bot', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('reason', 'text', (column) => column.notNull());
}

/** 0004: tracker_clicks and tracker_leads. */
export function trackerEventsMigration(dialect: Dialect): Migration {
  const money = dialect === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: AnyDb) {
      await withRoutingColumns(
        eventTable(db, 'tracker_clicks', dialect).addColumn('click_id', 'text', (column) => column.notNull().unique()),
      )
        .addColumn('lander_external_id', 'text')
        .addColumn('visitor_id', 'text', (column) => column.notNull())
        .addColumn('is_unique', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('referrer', 'text')
        .addColumn('external_click_id', 'text')
        .addColumn('cost', money, (column) => column.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('tracker_clicks_created_at_idx').on('tracker_clicks').column('created_at').execute();
      await db.schema
        .createIndex('tracker_clicks_campaign_created_at_idx')
        .on('tracker_clicks')
        .columns(['campaign_external_id', 'created_at'])
        .execute();

      await withRoutingColumns(
        eventTable(db, 'tracker_leads', dialect).addColumn('lead_id', 'text', (column) => column.notNull().unique()),
      )
        .addColumn('email_hash', 'text', (column) => column.notNull())
        .addColumn('email_domain', 'text', (column) => column.notNull())
        .addColumn('age', 'integer')
        .addColumn('decision', 'text', (column) => column.notNull())
        .addColumn('backup_used', 'integer', (column) => column.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('tracker_leads_created_at_idx').on('tracker_leads').column('created_at').execute();
      await db.schema
        .createIndex('tracker_leads_campaign_created_at_idx')
        .on('tracker_leads')
        .columns(['campaign_external_id', 'created_at'])
        .execute();
      await db.schema.createIndex('tracker_leads_email_hash_idx').on('tracker_leads').column('email_hash').execute();
    },
  };
}
