// Issue 23: the change logs (click-cost-changes.ts, conversion-changes.ts) exist for the columnar store
// alone: its follower (embedded) or its feed (ClickHouse) reads each change once. A change every reader
// has passed is pruned, so a cost update over a million clicks does not leave a million rows for ever.
// A store built afresh needs none of the pruned ones: it copies clicks with their cost now and every
// conversion as it is now, then follows the log from there.
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

/** The last change id of each log that every reader has passed: rows up to it may go. */
export interface ChangeLogHorizons {
  costChanges: number;
  conversionChanges: number;
}

const LOGS: Record<keyof ChangeLogHorizons, 'tracker_click_cost_changes' | 'conversion_changes'> = {
  costChanges: 'tracker_click_cost_changes',
  conversionChanges: 'conversion_changes',
};

/** Ids per delete: each holds the database's write lock only briefly, so clicks are written meanwhile. */
const SLICE = 5_000;
/** How often pruning runs at most. */
const PRUNE_EVERY_MS = 60_000;

/** Deletes the changes at or below each horizon, `slice` ids at a time; answers how many went. */
export async function pruneChangeLogs(
  db: Kysely<Database>,
  horizons: ChangeLogHorizons,
  slice = SLICE,
): Promise<number> {
  let pruned = 0;
  for (const key of Object.keys(LOGS) as (keyof ChangeLogHorizons)[]) {
    const log = sql.table(LOGS[key]);
    const horizon = horizons[key];
    for (;;) {
      const { rows } = await sql<{ id: number | string | null }>`select min(id) as id from ${log}`.execute(db);
      const first = rows[0]?.id;
      if (first === null || first === undefined || Number(first) > horizon) break;
      const until = Math.min(horizon, Number(first) + slice - 1);
      const deleted = await sql`delete from ${log} where id <= ${until}`.execute(db);
      pruned += Number(deleted.numAffectedRows ?? 0);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return pruned;
}

export interface PrunerLog {
  info(message: string): void;
}

/**
 * Prunes the change logs now and then, up to what `horizons` answers (null: not now, as when a store
 * is still being built). One pruning at a time; a failed one is logged and tried again later.
 */
export class ChangeLogPruner {
  private lastRun = Number.NEGATIVE_INFINITY;
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly horizons: () => Promise<ChangeLogHorizons | null> | ChangeLogHorizons | null,
    private readonly log: PrunerLog,
    private readonly everyMs = PRUNE_EVERY_MS,
  ) {}

  /** Starts a pruning unless one ran within `everyMs` or is running. */
  maybePrune(): void {
    if (this.running || Date.now() - this.lastRun < this.everyMs) return;
    void this.prune();
  }

  /** Resolves once no pruning is running (before its database is closed). */
  async idle(): Promise<void> {
    await this.running;
  }

  /** Prunes now (after the one running, if any); answers how many changes went. */
  prune(): Promise<number> {
    const run = (this.running ?? Promise.resolve(0))
      .then(async () => {
        this.lastRun = Date.now();
        const horizons = await this.horizons();
        return horizons ? pruneChangeLogs(this.db, horizons) : 0;
      })
      .catch((error: unknown) => {
        this.log.info(`change logs not pruned: ${String(error)}`);
        return 0;
      })
      .finally(() => {
        if (this.running === run) this.running = null;
      });
    this.running = run;
    return run;
  }
}
