// Migration 0022_click_cost_changes_unindexed, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/**
 * 0022, SQLite: no index on the changes' click. Nothing there finds changes by click (the embedded
 * columnar store reads them in id order), and the index made pruning them 70 times slower: 16.6 s for a
 * million changes, 100 ms a slice of 5,000 with the event writer kept waiting, against 0.24 s without.
 */
export function clickCostChangesUnindexedMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      if (dialect === 'sqlite') await db.schema.dropIndex('tracker_click_cost_changes_click').ifExists().execute();
    },
  };
}
