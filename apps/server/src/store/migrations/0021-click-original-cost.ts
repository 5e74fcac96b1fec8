// Migration 0021_click_original_cost, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import { type Kysely, type Migration, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/**
 * 0021: the cost each click was stored with, kept by the first change of its cost (`originalCost`).
 * ClickHouse is sent a click with it while every change reaches it as an adjustment row; a change pruned
 * from the log (change-logs.ts) has reached ClickHouse, so a click it sends late still counts it once.
 * Clicks changed before this migration get it from their changes.
 */
export function clickOriginalCostMigration(dialect: Dialect): Migration {
  const money = dialect === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('tracker_clicks').addColumn('original_cost', money).execute();
      await sql`update tracker_clicks set original_cost = cost - (
          select sum(x.delta) from tracker_click_cost_changes x where x.click_id = tracker_clicks.click_id)
        where click_id in (select click_id from tracker_click_cost_changes)`.execute(db);
    },
  };
}
