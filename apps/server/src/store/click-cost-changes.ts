// Each change to a stored click's cost (a campaign's cost set, a cost model paid by conversion),
// kept in order in the transaction that makes it, so the append-only columnar store adds it as an
// adjustment row (columnar/schema.ts) instead of rewriting the click.
import { type Generated, type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
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
  /** Awaited between inserts (a cost update over a million clicks lets the event loop run). */
  between?: () => Promise<void>,
): Promise<void> {
  const moved = changes.filter((change) => change.delta !== 0);
  for (let start = 0; start < moved.length; start += CHUNK) {
    if (between && start > 0) await between();
    await trx
      .insertInto('tracker_click_cost_changes')
      .values(moved.slice(start, start + CHUNK))
      .execute();
  }
}

/**
 * What an update of clicks' cost sets beside it: on PostgreSQL, the cost they were stored with, on their
 * first change. Only the ClickHouse feed reads it, and only PostgreSQL feeds ClickHouse; on SQLite the write
 * made a cost update over a million clicks 6–18 % slower for nothing.
 */
export function originalCost(dialect: DatabaseDialect): { original_cost?: RawBuilder<number> } {
  return dialect === 'postgres' ? { original_cost: sql<number>`coalesce(original_cost, cost)` } : {};
}
