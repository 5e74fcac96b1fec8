// Migration 0018_click_cost_changes, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0018: tracker_click_cost_changes. */
export function clickCostChangesMigration(dialect: Dialect): Migration {
  const money = dialect === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('tracker_click_cost_changes')
        .addColumn('id', 'integer', (column) =>
          dialect === 'postgres'
            ? column.generatedByDefaultAsIdentity().primaryKey()
            : column.primaryKey().autoIncrement(),
        )
        .addColumn('click_id', 'text', (column) => column.notNull())
        .addColumn('delta', money, (column) => column.notNull())
        .execute();
    },
  };
}
