// Migration 0019_click_cost_changes_by_click, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/**
 * 0019: the changes of one click found by its id. ClickHouse is sent each click with the cost it was
 * stored with (its cost now, less its changes), as every change reaches it as an adjustment row.
 */
export function clickCostChangesByClickMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createIndex('tracker_click_cost_changes_click')
        .on('tracker_click_cost_changes')
        .column('click_id')
        .execute();
    },
  };
}
