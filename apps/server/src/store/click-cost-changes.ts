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

/**
 * Rows per insert: two values each, well under SQLite's and PostgreSQL's limits on bound values; and few
 * enough that one insert holds the event loop for milliseconds, not tens of them.
 */
const CHUNK = 1000;

/**
 * Records cost changes of clicks, in the caller's transaction: each move's `cost` is what that click's cost
 * moved by (none is kept for 0). Rows are made a chunk at a time: a million made in one go held the event
 * loop up.
 */
export async function recordCostChanges(
  trx: Transaction<Database> | Kysely<Database>,
  moves: readonly { click_id: string; cost: number }[],
  /** Awaited between inserts (a cost update over a million clicks lets the event loop run). */
  between?: () => Promise<void>,
): Promise<void> {
  let rows: { click_id: string; delta: number }[] = [];
  for (let index = 0; index <= moves.length; index += 1) {
    const move = moves[index];
    if (move && move.cost !== 0) rows.push({ click_id: move.click_id, delta: move.cost });
    if (rows.length === CHUNK || (index === moves.length && rows.length > 0)) {
      await trx.insertInto('tracker_click_cost_changes').values(rows).execute();
      rows = [];
      if (between && index < moves.length) await between();
    }
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
