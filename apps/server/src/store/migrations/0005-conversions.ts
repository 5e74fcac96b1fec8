// Migration 0005_conversions, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

function idColumn(dialect: Dialect) {
  return (column: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement();
}

/** 0005: conversions, postback_log, outbound_postbacks. */
export function conversionsMigration(dialect: Dialect): Migration {
  const money = dialect === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: AnyDb) {
      let conversions = db.schema
        .createTable('conversions')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('conversion_id', 'text', (column) => column.notNull().unique())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('click_id', 'text')
        .addColumn('lead_id', 'text')
        .addColumn('campaign_external_id', 'text', (column) => column.notNull());
      for (const name of [
        'flow_external_id',
        'path_group_id',
        'path_id',
        'offer_external_id',
        'lander_external_id',
        'traffic_source_external_id',
        'affiliate_network_external_id',
        'postback_event_external_id',
        'status',
      ]) {
        conversions = conversions.addColumn(name, 'text');
      }
      await conversions
        .addColumn('is_conversion', 'integer', (column) => column.notNull().defaultTo(1))
        .addColumn('payout', money, (column) => column.notNull().defaultTo(0))
        .addColumn('revenue', money)
        .addColumn('currency', 'text', (column) => column.notNull().defaultTo('USD'))
        .addColumn('txid', 'text')
        .addColumn('country', 'text')
        .addColumn('subaff', 'text')
        .addColumn('payout_rule_id', 'text')
        .addColumn('raw', 'text', (column) => column.notNull().defaultTo('{}'))
        .execute();
      // A repeated txid for the same click or lead is acknowledged, not counted (NULLs never collide).
      await db.schema
        .createIndex('conversions_click_txid_idx')
        .on('conversions')
        .columns(['click_id', 'txid'])
        .unique()
        .execute();
      await db.schema
        .createIndex('conversions_lead_txid_idx')
        .on('conversions')
        .columns(['lead_id', 'txid'])
        .unique()
        .execute();
      await db.schema.createIndex('conversions_created_at_idx').on('conversions').column('created_at').execute();
      await db.schema
        .createIndex('conversions_campaign_created_at_idx')
        .on('conversions')
        .columns(['campaign_external_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('postback_log')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('outcome', 'text', (column) => column.notNull())
        .addColumn('click_id', 'text')
        .addColumn('txid', 'text')
        .addColumn('conversion_id', 'text')
        .addColumn('ip', 'text')
        .addColumn('raw', 'text', (column) => column.notNull().defaultTo('{}'))
        .execute();
      await db.schema.createIndex('postback_log_created_at_idx').on('postback_log').column('created_at').execute();

      await db.schema
        .createTable('outbound_postbacks')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('conversion_id', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('url', 'text', (column) => column.notNull())
        .addColumn('state', 'text', (column) => column.notNull())
        .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('last_attempt_at', 'text')
        .addColumn('next_attempt_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('outbound_postbacks_state_next_idx')
        .on('outbound_postbacks')
        .columns(['state', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('outbound_postbacks_conversion_idx')
        .on('outbound_postbacks')
        .column('conversion_id')
        .execute();
    },
  };
}
