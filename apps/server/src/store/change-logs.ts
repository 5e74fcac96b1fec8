// The change logs (click-cost-changes.ts, conversion-changes.ts) exist for the columnar store
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

/**
 * The highest change of each log pruned while no ClickHouse read it (PostgreSQL without CLICKHOUSE_URL):
 * a ClickHouse configured again later finds there what it missed (columnar/clickhouse-copy.ts).
 */
export const PRUNED_UNREAD_KEY = 'change_logs.pruned_unread';
/** Marks of how far each log reached, kept to prune unread changes once they are this old. */
const MARKS_KEY = 'change_logs.marks';
const UNREAD_KEPT_MS = 7 * 24 * 3600_000;
/** How often a node without a columnar store looks for unread changes old enough to prune. */
const UNREAD_EVERY_MS = 3600_000;

async function setting<T>(db: Kysely<Database>, key: string): Promise<T | null> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row ? (JSON.parse(row.value) as T) : null;
}

async function setSetting(db: Kysely<Database>, key: string, value: unknown): Promise<void> {
  const row = { key, value: JSON.stringify(value), updated_at: new Date().toISOString() };
  await db
    .insertInto('settings')
    .values(row)
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: row.value, updated_at: row.updated_at }))
    .execute();
}

/** What has been pruned unread (0 each when nothing). */
export async function prunedUnread(db: Kysely<Database>): Promise<ChangeLogHorizons> {
  return (await setting<ChangeLogHorizons>(db, PRUNED_UNREAD_KEY)) ?? { costChanges: 0, conversionChanges: 0 };
}

/**
 * PostgreSQL without a columnar store: nothing reads the change logs (a ClickHouse configured later copies
 * clicks with their cost now and conversions as they are, and needs none of them). Each log is marked where
 * it reached every hour, and what a mark held is pruned once the mark is a week old, and recorded as
 * pruned unread. Answers the horizons to prune to, or null.
 */
export async function unreadHorizons(db: Kysely<Database>, now = Date.now()): Promise<ChangeLogHorizons | null> {
  type Mark = ChangeLogHorizons & { at: number };
  const marks = (await setting<Mark[]>(db, MARKS_KEY)) ?? [];
  const reached = { at: now, costChanges: 0, conversionChanges: 0 };
  for (const key of Object.keys(LOGS) as (keyof ChangeLogHorizons)[]) {
    const { rows } = await sql<{
      id: number | string | null;
    }>`select max(id) as id from ${sql.table(LOGS[key])}`.execute(db);
    reached[key] = Number(rows[0]?.id ?? 0);
  }
  const old = marks.filter((mark) => now - mark.at >= UNREAD_KEPT_MS);
  const horizon = old.length > 0 ? old[old.length - 1]! : null;
  const kept = marks.filter((mark) => now - mark.at < UNREAD_KEPT_MS);
  if (kept.length === 0 || now - kept[kept.length - 1]!.at >= UNREAD_EVERY_MS) kept.push(reached);
  await setSetting(db, MARKS_KEY, kept);
  if (!horizon) return null;
  const pruned = await prunedUnread(db);
  const next = {
    costChanges: Math.max(pruned.costChanges, horizon.costChanges),
    conversionChanges: Math.max(pruned.conversionChanges, horizon.conversionChanges),
  };
  // Recorded before the changes go: a ClickHouse that looks meanwhile finds it missed them.
  await setSetting(db, PRUNED_UNREAD_KEY, next);
  return { costChanges: horizon.costChanges, conversionChanges: horizon.conversionChanges };
}

/** Starts pruning unread changes (PostgreSQL without CLICKHOUSE_URL); answers how to stop it. */
export function pruneUnread(db: Kysely<Database>, log: PrunerLog): () => Promise<void> {
  const pruner = new ChangeLogPruner(db, () => unreadHorizons(db), log, UNREAD_EVERY_MS);
  pruner.maybePrune();
  const timer = setInterval(() => pruner.maybePrune(), UNREAD_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await pruner.idle();
  };
}

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
