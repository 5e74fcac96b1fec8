// PostgreSQL plans each query from what it knows of a table's contents, which autovacuum refreshes once
// about a tenth of the table changed, a minute or so later. A table filled just now (an import, a
// restore) is planned as if it were nearly empty: a cost update then read each page of a campaign's clicks
// through the workspace's index and sorted every click left in its range, minutes at a million clicks
// where half a minute is usual (bench/README.md, fourteenth session). Work that reads a large table page by
// page asks for its statistics first.
import { sql } from 'kysely';
import type { Store } from './database.js';
import type { Database } from './schema.js';

/** Tables smaller than this are planned well enough without statistics, and not worth an ANALYZE. */
const ANALYZE_FROM_ROWS = 10_000;

/**
 * On PostgreSQL, analyzes `table` (a few hundred milliseconds: a sample of its rows) when at least half
 * of its rows were written since its statistics were last taken, as autovacuum would soon. SQLite's
 * planner reads the indexes themselves; nothing is done there.
 */
export async function freshStatistics(store: Store, table: keyof Database): Promise<boolean> {
  if (store.dialect !== 'postgres') return false;
  const { rows } = await sql<{ live: string | number; changed: string | number }>`
    select n_live_tup as live, n_mod_since_analyze as changed
    from pg_stat_user_tables where relid = to_regclass(${table})`.execute(store.db);
  const live = Number(rows[0]?.live ?? 0);
  const changed = Number(rows[0]?.changed ?? 0);
  if (live < ANALYZE_FROM_ROWS || changed * 2 < live) return false;
  await sql`analyze ${sql.table(table)}`.execute(store.db);
  return true;
}
