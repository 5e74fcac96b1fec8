// Migration 0012_cost_models, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import { type Kysely, type Migration, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0012: tracker_clicks.cost_flag, and conversions.event_at filled from the stored clicks and leads. */
export function costModelsMigration(dialect: Dialect): Migration {
  const money = dialect === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('tracker_clicks').addColumn('cost_flag', 'text').execute();
      await db.schema.alterTable('conversions').addColumn('event_at', 'text').execute();
      await db.schema
        .alterTable('conversions')
        .addColumn('cost', money, (column) => column.notNull().defaultTo(0))
        .execute();
      await sql`update conversions set event_at = coalesce(
          (select c.created_at from tracker_clicks c where c.click_id = conversions.click_id),
          (select l.created_at from tracker_leads l where l.lead_id = conversions.lead_id),
          conversions.created_at)`.execute(db);
      await db.schema
        .createIndex('conversions_campaign_event_at_idx')
        .on('conversions')
        .columns(['campaign_external_id', 'event_at'])
        .execute();
      await db.schema.createIndex('conversions_event_at_idx').on('conversions').column('event_at').execute();
    },
  };
}
