// The embedded columnar store follows the SQLite event tables. The event writer keeps writing
// clicks and leads to SQLite (the journal, caps and postbacks read them there); this copies each new row
// to DuckDB in id order, from the report reader's thread, so the event loop never waits for it. The
// store's own highest ids are where it resumes: a store deleted by hand is rebuilt from the first event.
//
// A click's cost may move after it was copied (store/click-cost-changes.ts). Each pass reads SQLite in
// one snapshot and writes DuckDB in one transaction: clicks copied in the pass carry every change the
// snapshot holds, so a change is added as an adjustment row only to clicks copied by an earlier pass
// (for the others, the row records it at zero, so the store knows it was seen).
//
// Conversions (follower-conversions.ts): a store that has none yet copies every conversion as it is now,
// and the log's last id in the same snapshot; from then on it follows the log. So neither log is needed
// past what the store holds, and both are pruned up to `followed` (store/change-logs.ts).

import { type DuckDBAppender, DuckDBTimestampValue } from '@duckdb/node-api';
import SQLite from 'better-sqlite3';
import type { ChangeLogHorizons } from '../store/change-logs.js';
import type { DuckDBStore } from './duckdb.js';
import { CODED_COLUMNS } from './duckdb-codes.js';
import { ConversionFollowing } from './follower-conversions.js';
import { COLUMNAR_TEXT_COLUMNS, type ColumnarTable } from './schema.js';

/** Rows read per statement: large enough to append quickly, small enough not to hold up a report long. */
const BATCH = 50_000;
/**
 * Rows one pass copies before it commits and lets a new snapshot begin (a rebuild is many passes): a
 * SQLite snapshot held long keeps the database's write-ahead log from being checkpointed.
 */
const PASS_ROWS = 250_000;
/** A backlog past this is logged as a rebuild, with its progress. */
const LOGGED_BACKLOG = 100_000;

const SOURCES: Record<ColumnarTable, { table: string; id: string }> = {
  clicks: { table: 'tracker_clicks', id: 'click_id' },
  leads: { table: 'tracker_leads', id: 'lead_id' },
};

export interface FollowerLog {
  info(message: string): void;
}

/**
 * The columns a columnar row takes from an event table row (leads have no lander and no cost), read as
 * arrays in this order (AT: where each is): no object is made per row, as millions are copied at start.
 */
function selected(table: ColumnarTable, alias: string): string {
  const text = COLUMNAR_TEXT_COLUMNS.map((name) =>
    table === 'leads' && name === 'lander_external_id' ? 'null' : `${alias}."${name}"`,
  );
  const cost = table === 'clicks' ? `${alias}.cost` : '0';
  const lp = table === 'clicks' ? `case when ${alias}.lp_clicked_at is null then 0 else 1 end` : '0';
  return `${alias}.${SOURCES[table].id}, ${alias}.id, ${alias}.created_at, ${alias}.is_unique, ${cost},
    ${alias}.asn, ${alias}.is_bot, coalesce(${alias}.workspace_id, 0), ${lp}, ${text.join(', ')}`;
}

const AT = {
  eventId: 0,
  id: 1,
  createdAt: 2,
  isUnique: 3,
  cost: 4,
  asn: 5,
  isBot: 6,
  workspace: 7,
  lp: 8,
  text: 9,
} as const;
/** Where each coded column (duckdb-codes.ts) is among a row's values, whose numbers close the row. */
const CODED_AT = CODED_COLUMNS.map((name) => AT.text + COLUMNAR_TEXT_COLUMNS.indexOf(name));
const LANDER_AT = AT.text + COLUMNAR_TEXT_COLUMNS.indexOf('lander_external_id');

type RawRow = unknown[];
/** A change row's own columns (id, delta, lp) before its click's. */
const CHANGE_COLUMNS = 3;

export class ColumnarFollower {
  private readonly last: Record<ColumnarTable, number> = { clicks: 0, leads: 0 };
  private lastChange = 0;
  private readonly conversions: ConversionFollowing;
  private readonly sqlite: SQLite.Database;
  private readonly events: Record<ColumnarTable, SQLite.Statement<[number, number], RawRow>>;
  private readonly countAfter: Record<ColumnarTable, SQLite.Statement<[number], { count: number }>>;
  private readonly lastChangeId: SQLite.Statement<[], { id: number | null }>;
  /** The highest id of each table and log, by their primary keys: whether a pass has anything to copy. */
  private readonly newest: SQLite.Statement<[], { clicks: number | null; leads: number | null }>;
  /** Each change's id, delta and lp (an lp click), then its click's columns (selected). */
  private readonly changes: SQLite.Statement<[number, number], RawRow>;
  private running: Promise<unknown> = Promise.resolve();
  private caughtUp = false;
  private stopped = false;

  /** `file`: the SQLite database, read on a connection of its own (its snapshots are the follower's). */
  private constructor(
    file: string,
    readonly store: DuckDBStore,
    private readonly log: FollowerLog,
  ) {
    this.sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
    const select = (table: ColumnarTable) =>
      this.sqlite
        .prepare<[number, number], RawRow>(
          `select ${selected(table, 'e')} from ${SOURCES[table].table} as e where e.id > ? order by e.id limit ?`,
        )
        .raw(true);
    this.events = { clicks: select('clicks'), leads: select('leads') };
    this.countAfter = {
      clicks: this.sqlite.prepare('select count(*) as count from tracker_clicks where id > ?'),
      leads: this.sqlite.prepare('select count(*) as count from tracker_leads where id > ?'),
    };
    this.lastChangeId = this.sqlite.prepare('select max(id) as id from tracker_click_cost_changes');
    this.newest = this.sqlite.prepare(
      'select (select max(id) from tracker_clicks) as clicks, (select max(id) from tracker_leads) as leads',
    );
    this.changes = this.sqlite
      .prepare<[number, number], RawRow>(
        `select x.id, x.delta, x.lp, ${selected('clicks', 'e')}
         from tracker_click_cost_changes as x join tracker_clicks as e on e.click_id = x.click_id
         where x.id > ? and x.id <= ? order by x.id`,
      )
      .raw(true);
    this.conversions = new ConversionFollowing(this.sqlite, BATCH);
  }

  static async start(file: string, store: DuckDBStore, log: FollowerLog): Promise<ColumnarFollower> {
    const follower = new ColumnarFollower(file, store, log);
    for (const table of ['clicks', 'leads'] as const) follower.last[table] = await store.lastSourceId(table);
    follower.lastChange = await store.lastCostChange();
    await follower.conversions.resume(store);
    return follower;
  }

  /** The last change of each log the store holds, committed: the logs may be pruned up to it. */
  get followed(): ChangeLogHorizons {
    return { costChanges: this.lastChange, conversionChanges: this.conversions.lastChange };
  }

  /** Whether reports may read the store: it has caught up once since it started. */
  get ready(): boolean {
    return this.caughtUp;
  }

  /** Events not yet copied, in both tables. */
  behind(): number {
    return this.countAfter.clicks.get(this.last.clicks)!.count + this.countAfter.leads.get(this.last.leads)!.count;
  }

  /**
   * Copies every event and cost change stored since the last call, then resolves. Calls wait for each
   * other: a report's catch-up and the rebuild at start never copy the same rows twice.
   */
  catchUp(onPass?: (copied: number) => void): Promise<number> {
    const next = this.running.then(() => this.copyAll(onPass));
    this.running = next.catch(() => undefined);
    return next;
  }

  /** The first catch-up at start: the whole backlog, with progress in the log when it is long. */
  async rebuild(): Promise<void> {
    const backlog = this.behind();
    const logged = backlog > LOGGED_BACKLOG;
    if (logged) this.log.info(`columnar store: copying ${backlog} events from the event tables`);
    const started = Date.now();
    let copied = 0;
    await this.catchUp((rows) => {
      copied += rows;
      if (logged) this.log.info(`columnar store: ${copied} of ${backlog} events copied`);
    });
    this.log.info(`columnar store: caught up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  /** Stops copying after the pass being copied; resolves once nothing is being copied. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
    this.sqlite.close();
  }

  /**
   * Whether the event tables and both logs hold nothing past what the store holds: a report's catch-up
   * then reads four maxima instead of opening a snapshot and a DuckDB transaction.
   */
  private unchanged(): boolean {
    if (!this.caughtUp) return false;
    const newest = this.newest.get();
    return (
      (newest?.clicks ?? 0) <= this.last.clicks &&
      (newest?.leads ?? 0) <= this.last.leads &&
      (this.lastChangeId.get()?.id ?? 0) <= this.lastChange &&
      this.conversions.unchanged()
    );
  }

  private async copyAll(onPass?: (copied: number) => void): Promise<number> {
    if (this.unchanged()) return 0;
    let copied = 0;
    for (;;) {
      if (this.stopped) return copied;
      const { rows, more } = await this.pass();
      copied += rows;
      if (rows > 0) onPass?.(rows);
      if (!more) break;
      // Let a report waiting on this thread's event loop be read between passes.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.caughtUp = true;
    return copied;
  }

  /** One snapshot of SQLite into one DuckDB transaction (see the top of this file). */
  private async pass(): Promise<{ rows: number; more: boolean }> {
    this.sqlite.exec('begin');
    const copiedBefore = { ...this.last };
    const last = { ...this.last };
    let rows = 0;
    let more = false;
    let conversionsUntil = this.conversions.lastChange;
    try {
      const lastChange = this.lastChangeId.get()?.id ?? 0;
      const lastConversionChange = this.conversions.newestChange();
      await this.store.transaction(async () => {
        for (const table of ['clicks', 'leads'] as const) {
          for (;;) {
            const batch = this.events[table].all(last[table], BATCH);
            if (batch.length === 0) break;
            await this.store.appendWith(table, (appender) => {
              for (const row of batch) this.appendRow(appender, row, 0);
            });
            last[table] = Number(batch[batch.length - 1]![AT.id]);
            rows += batch.length;
            if (batch.length < BATCH) break;
            if (rows >= PASS_ROWS) {
              more = true;
              break;
            }
          }
        }
        if (lastChange > this.lastChange) {
          const changes = this.changes.all(this.lastChange, lastChange);
          await this.store.appendWith('clicks', (appender) => {
            for (const change of changes) {
              // A click copied in this pass already carries the change (its cost, or its lp click).
              const copied = Number(change[CHANGE_COLUMNS + AT.id]) <= copiedBefore.clicks;
              this.appendRow(appender, change, CHANGE_COLUMNS, {
                key: `cost:${change[0]}`,
                cost: copied ? Number(change[1]) : 0,
                lp: copied ? Number(change[2]) : 0,
              });
            }
          });
        }
        const conversions = await this.conversions.copy(this.store, lastConversionChange);
        rows += conversions.rows;
        more ||= conversions.more;
        conversionsUntil = conversions.until;
      });
      this.conversions.committed(conversionsUntil);
      this.last.clicks = last.clicks;
      this.last.leads = last.leads;
      this.lastChange = Math.max(this.lastChange, lastChange);
    } finally {
      this.sqlite.exec('commit');
    }
    return { rows, more };
  }

  /**
   * One row in the store's column order (duckdb.ts, appendRow), from an event's columns starting at
   * `from`; `adjustment`: a cost change of the click instead of the click itself.
   */
  private appendRow(
    appender: DuckDBAppender,
    row: RawRow,
    from: number,
    adjustment?: { key: string; cost: number; lp: number },
  ): void {
    const at = (index: number) => row[from + index];
    appender.appendVarchar(adjustment ? adjustment.key : String(at(AT.eventId)));
    appender.appendBigInt(BigInt(at(AT.id) as number));
    // The event's own workspace, as the event tables' reports read it.
    appender.appendInteger(Number(at(AT.workspace)));
    appender.appendTimestamp(new DuckDBTimestampValue(BigInt(Date.parse(String(at(AT.createdAt)))) * 1000n));
    appender.appendTinyInt(adjustment ? 0 : 1);
    appender.appendTinyInt(!adjustment && Number(at(AT.isUnique)) === 1 ? 1 : 0);
    appender.appendDouble(adjustment ? adjustment.cost : Number(at(AT.cost) ?? 0));
    const asn = at(AT.asn);
    if (asn === null) appender.appendNull();
    else appender.appendBigInt(BigInt(asn as number));
    appender.appendTinyInt(Number(at(AT.isBot)) === 1 ? 1 : 0);
    appender.appendTinyInt(adjustment ? adjustment.lp : Number(at(AT.lp)) === 1 ? 1 : 0);
    for (let index = 0; index < COLUMNAR_TEXT_COLUMNS.length; index += 1) {
      const value = at(AT.text + index);
      if (value === null) appender.appendNull();
      else appender.appendVarchar(String(value));
    }
    for (let index = 0; index < CODED_COLUMNS.length; index += 1) {
      this.store.codes.append(appender, CODED_COLUMNS[index]!, at(CODED_AT[index]!));
    }
    appender.appendTinyInt(!adjustment && at(LANDER_AT) !== null ? 1 : 0);
    appender.endRow();
  }
}
