// Past one machine: what reaches ClickHouse, and when. PostgreSQL stays the record: every
// node's event writer stores a batch there, then sends the same rows, as PostgreSQL holds them, to
// ClickHouse (store/traffic/kysely-sink.ts); a batch ClickHouse refused is retried whole, and the
// journal keeps its events until both have them, so a crash or an outage loses none. Rows that may have
// reached ClickHouse already (a retry after a failed insert, a replayed journal, a backfill resumed after
// a stop, cost changes past a gap) are checked against it before they are sent again (clickhouse.ts).
//
// Conversions change after they are stored: every change in PostgreSQL's change log
// (store/conversion-changes.ts) is sent as the conversion's whole row, versioned by the change.
//
// Costs: a click is sent with the cost it was stored with (`original_cost`, kept by its first change),
// and each change (store/click-cost-changes.ts) is sent as an adjustment row by `sendCostChanges`, so a
// change counts once whether it was made before or after its click reached ClickHouse. Every node
// follows the change logs (log-cursor.ts); cost changes are sent by one node at a time, so none is
// stored twice.
//
// Events and conversions stored before ClickHouse was configured are copied at start by `backfill`
// (clickhouse-copy.ts); reports read ClickHouse once that copy is done. The change logs are pruned up to
// what this node has followed (`followed`, store/change-logs.ts), once that copy is complete.
import { type Kysely, sql } from 'kysely';
import type { ChangeLogHorizons } from '../store/change-logs.js';
import type { Database } from '../store/schema.js';
import type { ClickHouseStore } from './clickhouse.js';
import { CodeIssuer } from './clickhouse-codes.js';
import { BACKFILL_BATCH, ClickHouseCopy } from './clickhouse-copy.js';
import {
  type ConversionRecord,
  columnarRow,
  conversionColumns,
  conversionRow,
  type EventRecord,
  eventColumns,
  removedRow,
  SOURCES,
} from './clickhouse-rows.js';
import { LogCursor, SNAPSHOT_COLUMNS, type SnapshotColumns } from './log-cursor.js';
import type { ColumnarRow, ColumnarTable } from './schema.js';

/** The advisory lock under which one node at a time sends cost changes. */
const COSTS_LOCK = 2_023_062_302;
/** Cost changes read per pass. */
const CHANGES_BATCH = 20_000;
/**
 * How long a node follows the change logs before it prunes them, when its cursors had to start at what
 * ClickHouse holds (a ClickHouse written before cursors were kept there): another node may have sent a
 * change past one it still waits on.
 */
const PRUNE_AFTER_MS = 120_000;

export interface FeedOptions {
  /** Rows per backfill statement and insert (tests copy in several small batches). */
  backfillBatch?: number;
  /** How long this node follows the change logs before it prunes them (PRUNE_AFTER_MS; tests: 0). */
  pruneAfterMs?: number;
}

/** Who sends rows to ClickHouse: the event writer, the cost change pass, the backfill. */
type Sender = 'writer' | 'costs' | 'backfill';

export interface FeedLog {
  info(message: string): void;
  warn(message: string): void;
}

export class ClickHouseFeed {
  private readonly costs = new LogCursor();
  private readonly conversions = new LogCursor();
  /** Cost changes sent past a gap in the log: read again until the gap fills, not sent again. */
  private readonly costsAhead = new Set<number>();
  /**
   * The highest cost change ClickHouse held when this node started following: in a ClickHouse from before
   * `sent:costs` was recorded, what may have been sent.
   */
  private costsHeld = 0;
  /**
   * Senders whose last insert failed: ClickHouse may have stored it all the same, so their next one is
   * checked. One flag each, as the writer, the cost pass and the backfill send side by side.
   */
  private readonly uncertain = new Set<Sender>();
  private backfilled = false;
  /** Conversion rows were sent since conversions were last compacted (or none since this node started). */
  private conversionsSent = true;
  private sendingChanges: Promise<number> = Promise.resolve(0);
  private sendingConversions: Promise<number> = Promise.resolve(0);

  private readonly copy: ClickHouseCopy;
  private readonly pruneAfterMs: number;
  /** When this node's change cursors were read from ClickHouse (null: not yet). */
  private followingSince: number | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    readonly store: ClickHouseStore,
    private readonly log: FeedLog,
    { backfillBatch = BACKFILL_BATCH, pruneAfterMs = PRUNE_AFTER_MS }: FeedOptions = {},
  ) {
    this.pruneAfterMs = pruneAfterMs;
    // Every row this node sends carries its codes, issued by PostgreSQL (clickhouse-codes.ts).
    store.useCodes(new CodeIssuer(db));
    this.copy = new ClickHouseCopy({
      db,
      store,
      log,
      batch: backfillBatch,
      append: (table, rows, again) => this.append('backfill', table, rows, again),
    });
  }

  /**
   * How far the change logs may be pruned (store/change-logs.ts): what this node has sent, once the
   * ClickHouse it sends to holds every event and conversion stored before it (one emptied meanwhile has
   * to be copied again first); null until then.
   */
  async followed(): Promise<ChangeLogHorizons | null> {
    const costs = this.costs.last;
    const conversions = this.conversions.last;
    if (!this.backfilled || costs === null || conversions === null || this.followingSince === null) return null;
    if (Date.now() - this.followingSince < this.pruneAfterMs) return null;
    return (await this.copy.complete()) ? { costChanges: costs, conversionChanges: conversions } : null;
  }

  /** Reports may read ClickHouse: every event stored before it was configured has been copied to it. */
  get ready(): boolean {
    return this.backfilled;
  }

  /**
   * Sends the events of these ids as PostgreSQL holds them (ids it does not hold are left out). `again`:
   * they may have been sent before (a journal replayed at start).
   */
  async sendEvents(clickIds: readonly string[], leadIds: readonly string[], { again = false } = {}): Promise<void> {
    for (const [table, ids] of [
      ['clicks', clickIds],
      ['leads', leadIds],
    ] as const) {
      if (ids.length === 0) continue;
      const { rows } = await sql<EventRecord>`select ${eventColumns(table)} from ${sql.table(SOURCES[table].table)} e
        where ${sql.ref(`e.${SOURCES[table].id}`)} in (${sql.join([...ids])})`.execute(this.db);
      await this.append(
        'writer',
        table,
        rows.map((record) => columnarRow(record)),
        again,
      );
    }
  }

  private async append(sender: Sender, table: ColumnarTable, rows: ColumnarRow[], again: boolean): Promise<void> {
    try {
      await this.store.append(table, rows, { again: again || this.uncertain.has(sender) });
      this.uncertain.delete(sender);
    } catch (error) {
      this.uncertain.add(sender);
      throw error;
    }
  }

  /**
   * Sends the cost changes recorded since the last pass as adjustment rows; answers how many. Passes
   * wait for each other.
   */
  sendCostChanges(): Promise<number> {
    const next = this.sendingChanges.then(() => this.costPass());
    this.sendingChanges = next.catch(() => 0);
    return next;
  }

  /** Sends each conversion changed since the last pass as it is now (its removal, if removed). */
  sendConversionChanges(): Promise<number> {
    const next = this.sendingConversions.then(() => this.conversionsPass());
    this.sendingConversions = next.catch(() => 0);
    return next;
  }

  /**
   * Whether a change log holds changes past `last`: every report asks first, and most often there are
   * none, so the join that reads changes with their rows is not planned and run for nothing.
   */
  private async newer(log: 'tracker_click_cost_changes' | 'conversion_changes', last: number): Promise<boolean> {
    const { rows } = await sql<{ id: number | string | null }>`select max(id) as id from ${sql.table(log)}`.execute(
      this.db,
    );
    return Number(rows[0]?.id ?? 0) > last;
  }

  /**
   * Where a cursor starts: past what any node recorded it had passed (each stops at a change it may still
   * see), else, in a ClickHouse from before that record, past the highest change it holds. Answers the
   * highest change ClickHouse holds: sent already, perhaps, by this node before it stopped.
   */
  private async start(cursor: LogCursor, log: 'costs' | 'conversions'): Promise<number> {
    const held = log === 'costs' ? await this.store.lastCostChange() : await this.store.lastConversionChange();
    const recorded = await this.store.progress(`followed:${log}`);
    cursor.last = recorded ?? held;
    if (recorded === null) this.followingSince ??= Date.now();
    else this.followingSince ??= Date.now() - this.pruneAfterMs;
    return held;
  }

  /** Records how far a cursor has passed, for this node's next start and the others'. */
  private async passed(cursor: LogCursor, log: 'costs' | 'conversions', moved: boolean): Promise<void> {
    const wait = cursor.longWait();
    if (wait) {
      this.log.warn(
        `ClickHouse: ${log === 'costs' ? 'cost' : 'conversion'} change ${wait.id} has waited ${wait.seconds} s for a transaction still open; later changes are sent meanwhile`,
      );
    }
    if (moved) await this.store.setProgress(`followed:${log}`, cursor.last ?? 0);
  }

  private async costPass(): Promise<number> {
    const cursor = this.costs;
    if (cursor.last === null) this.costsHeld = await this.start(cursor, 'costs');
    if (!(await this.newer('tracker_click_cost_changes', cursor.last ?? 0))) return 0;
    // One node at a time (a PostgreSQL advisory lock on a connection of its own): every node follows the
    // same log, and a change one has sent, the next finds in ClickHouse's progress and checks before it
    // sends it again. Adjustment rows are read without FINAL, so one sent twice would count twice.
    return this.db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(${COSTS_LOCK})`.execute(connection);
      try {
        return await this.costPassAlone();
      } finally {
        await sql`select pg_advisory_unlock(${COSTS_LOCK})`.execute(connection);
      }
    });
  }

  private async costPassAlone(): Promise<number> {
    const cursor = this.costs;
    // Another node may have passed further, and sent changes past one this node still waits on.
    const passed = await this.store.progress('followed:costs');
    if (passed !== null && passed > (cursor.last ?? 0)) cursor.last = passed;
    let sentUpTo = Math.max(this.costsHeld, (await this.store.progress('sent:costs')) ?? 0);
    let sent = 0;
    let moved = false;
    for (;;) {
      const { rows } = await sql<
        EventRecord & SnapshotColumns & { change_id: number | string; delta: number | string; lp: number | string }
      >`
        select x.id as change_id, x.delta, x.lp, ${eventColumns('clicks')}, ${SNAPSHOT_COLUMNS}
        from tracker_click_cost_changes x join tracker_clicks e on e.click_id = x.click_id
        where x.id > ${cursor.last} order by x.id limit ${CHANGES_BATCH}`.execute(this.db);
      const fresh = rows.filter((record) => !this.costsAhead.has(Number(record.change_id)));
      if (fresh.length > 0) {
        const highest = Number(fresh[fresh.length - 1]!.change_id);
        // Sent already, perhaps, by a node (this one before a restart, or another): checked first.
        const again = Number(fresh[0]!.change_id) <= sentUpTo;
        // Recorded before the insert: if the insert fails after all, the next sender only checks more.
        if (highest > sentUpTo) {
          sentUpTo = highest;
          await this.store.setProgress('sent:costs', sentUpTo);
        }
        await this.append(
          'costs',
          'clicks',
          fresh.map((record) =>
            columnarRow(record, { key: `cost:${record.change_id}`, cost: Number(record.delta), lp: Number(record.lp) }),
          ),
          again,
        );
      }
      sent += fresh.length;
      const advanced = cursor.advance(
        rows.map((record) => Number(record.change_id)),
        rows[0],
      );
      moved ||= advanced;
      for (const record of fresh) this.costsAhead.add(Number(record.change_id));
      for (const id of this.costsAhead) if (id <= (cursor.last ?? 0)) this.costsAhead.delete(id);
      if (!advanced || rows.length < CHANGES_BATCH) break;
    }
    await this.passed(cursor, 'costs', moved);
    return sent;
  }

  private async conversionsPass(): Promise<number> {
    const cursor = this.conversions;
    if (cursor.last === null) await this.start(cursor, 'conversions');
    if (!(await this.newer('conversion_changes', cursor.last ?? 0))) return 0;
    let sent = 0;
    let moved = false;
    for (;;) {
      const { rows } = await sql<ConversionRecord & SnapshotColumns & { change_id: number | string; changed: string }>`
        select x.id as change_id, x.conversion_id as changed, ${conversionColumns()}, ${SNAPSHOT_COLUMNS}
        from conversion_changes x
          left join conversions e on e.conversion_id = x.conversion_id
          left join tracker_clicks c on c.click_id = e.click_id
          left join tracker_leads l on l.lead_id = e.lead_id
        where x.id > ${cursor.last} order by x.id limit ${CHANGES_BATCH}`.execute(this.db);
      const stored: Record<string, unknown>[] = [];
      for (const record of rows) {
        const version = Number(record.change_id);
        if (record.conversion_id !== null) {
          stored.push(conversionRow(record, version));
          continue;
        }
        // Removed: its last row again, marked, so that it sorts where that row does.
        const last = await this.store.conversionRow(record.changed);
        if (last) stored.push(removedRow(last, version));
      }
      if (stored.length > 0) {
        await this.store.appendConversions(stored);
        this.conversionsSent = true;
      }
      sent += rows.length;
      const advanced = cursor.advance(
        rows.map((record) => Number(record.change_id)),
        rows[0],
      );
      moved ||= advanced;
      if (!advanced || rows.length < CHANGES_BATCH) break;
    }
    await this.passed(cursor, 'conversions', moved);
    return sent;
  }

  /**
   * Copies the events PostgreSQL held when ClickHouse was first configured (those stored since were sent
   * by their writers) and every conversion (clickhouse-copy.ts), then sends the conversions changed since.
   */
  async backfill(): Promise<void> {
    const started = Date.now();
    const missed = await this.copy.run();
    if (missed) {
      this.log.warn(
        `ClickHouse misses cost or conversion changes made while no ClickHouse was configured, and pruned since (${missed}); reports read PostgreSQL. Drop its database (or point CLICKHOUSE_URL at a new one) and restart: it is copied afresh.`,
      );
      return;
    }
    await this.sendConversionChanges();
    this.backfilled = true;
    this.log.info(`ClickHouse: holds every event (checked in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    // A backfill leaves each conversion changed since it was stored twice: its copy and its change.
    await this.compactConversions();
  }

  /**
   * Merges the conversions' parts (ClickHouseStore.compactConversions) when rows were sent since the last
   * time: at the end of a backfill, then now and then (clickhouse-node.ts). A failure only waits for the
   * next time: reports read the rows merged or not.
   */
  async compactConversions(): Promise<void> {
    if (!this.conversionsSent) return;
    this.conversionsSent = false;
    const started = Date.now();
    try {
      const merged = await this.store.compactConversions();
      if (merged > 0) {
        this.log.info(
          `ClickHouse: conversions compacted, ${merged} month(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        );
      }
    } catch (error) {
      this.conversionsSent = true;
      this.log.warn(`ClickHouse: conversions not compacted: ${String(error)}`);
    }
  }
}
