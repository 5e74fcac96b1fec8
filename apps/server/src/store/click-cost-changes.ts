// Each change to a stored click's cost (a campaign's cost set, a cost model paid by conversion),
// kept in order in the transaction that makes it, so the append-only columnar store adds it as an
// adjustment row (columnar/schema.ts) instead of rewriting the click.
import { type Generated, type Kysely, type Migration, type RawBuilder, sql, type Transaction } from 'kysely';
import type { DatabaseDialect } from '../config.js';
import type { Database } from './schema.js';

export interface ClickCostChangeTable {
  id: Generated<number>;
  click_id: string;
  /** What the click's cost moved by. */
  delta: number;
  /** Migration 0040: 1 for the click going on from its lander to the offer (delta 0), else 0. */
  lp: Generated<number>;
}

/** Rows per insert: two values each, well under SQLite's and PostgreSQL's limits on bound values. */
const CHUNK = 5000;

/** Records cost changes of clicks (`click_id` → change), in the caller's transaction. */
export async function recordCostChanges(
  trx: Transaction<Database> | Kysely<Database>,
  changes: readonly { click_id: string; delta: number }[],
): Promise<void> {
  const moved = changes.filter((change) => change.delta !== 0);
  for (let start = 0; start < moved.length; start += CHUNK) {
    await trx
      .insertInto('tracker_click_cost_changes')
      .values(moved.slice(start, start + CHUNK))
      .execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0018: tracker_click_cost_changes. */
export function clickCostChangesMigration(dialect: DatabaseDialect): Migration {
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

/**
 * 0021: the cost each click was stored with, kept by the first change of its cost (`originalCost`).
 * ClickHouse is sent a click with it while every change reaches it as an adjustment row; a change pruned
 * from the log (change-logs.ts) has reached ClickHouse, so a click it sends late still counts it once.
 * Clicks changed before this migration get it from their changes.
 */
export function clickOriginalCostMigration(dialect: DatabaseDialect): Migration {
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

/**
 * 0022, SQLite: no index on the changes' click. Nothing there finds changes by click (the embedded
 * columnar store reads them in id order), and the index made pruning them 70 times slower: 16.6 s for a
 * million changes, 100 ms a slice of 5,000 with the event writer kept waiting, against 0.24 s without.
 */
export function clickCostChangesUnindexedMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDb) {
      if (dialect === 'sqlite') await db.schema.dropIndex('tracker_click_cost_changes_click').ifExists().execute();
    },
  };
}

/**
 * What an update of clicks' cost sets beside it: on PostgreSQL, the cost they were stored with, on their
 * first change. Only the ClickHouse feed reads it, and only PostgreSQL feeds ClickHouse; on SQLite the write
 * made a cost update over a million clicks 6–18 % slower for nothing.
 */
export function originalCost(dialect: DatabaseDialect): { original_cost?: RawBuilder<number> } {
  return dialect === 'postgres' ? { original_cost: sql<number>`coalesce(original_cost, cost)` } : {};
}
