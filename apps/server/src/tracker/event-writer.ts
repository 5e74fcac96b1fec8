// Clicks and leads are answered first and written after (issue 5, item 3): rows wait in memory and are
// inserted in batches when enough have gathered or a short time has passed. What a hard crash can lose:
// the rows not yet flushed, at most `maxBatch` rows or `flushIntervalMs` of traffic (plus any batch
// the database refused and that is waiting for its retry). A graceful close flushes everything.
// On SQLite, event chunks commit without waiting for the disk (synchronous = NORMAL, for those commits
// only): a crash of the process loses nothing more, and a crash of the machine (power, kernel) can also
// lose the event chunks committed since the last durable commit — the next conversion, configuration
// change or WAL checkpoint, which do wait for the disk. An fsync per chunk cost more than routing a click.
//
// Writing never holds the event loop for long: rows go in chunks, and the writer yields to waiting
// requests between chunks. On SQLite (better-sqlite3 runs synchronously on the event loop) a chunk is
// one transaction of prepared single-row inserts, run while holding Kysely's connection so that no
// Kysely transaction is open on the connection at the time; PostgreSQL goes through Kysely.
// Each chunk's transaction also adds the chunk to the report rollups (store/report-rollups.ts), so the
// rollups always count exactly the rows stored.
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { applyRollupDeltas, type RollupDelta, rollupDeltas, UPSERT_ONE } from '../store/report-rollups.js';
import type { Database } from '../store/schema.js';
import type { NewTrackerClick, NewTrackerLead } from '../store/tracker-events.js';

export interface EventWriterOptions {
  /** Flush as soon as this many rows wait (per table). */
  maxBatch?: number;
  /** Flush rows older than this. */
  flushIntervalMs?: number;
  /** Rows kept while the database refuses them; beyond this the oldest are dropped (and logged). */
  maxPending?: number;
  log?: { error(object: unknown, message: string): void; warn(object: unknown, message: string): void };
  /** The better-sqlite3 database behind `db` when it is SQLite: rows then go in through prepared statements. */
  sqlite?: SQLite.Database;
}

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits (about 35 columns). */
const INSERT_CHUNK = 500;
/** Rows per SQLite transaction: a few milliseconds of work at most before the writer yields. */
const SQLITE_CHUNK = 200;

type EventTable = 'tracker_clicks' | 'tracker_leads';

class EventBuffer<TRow> {
  rows: TRow[] = [];
  constructor(readonly table: EventTable) {}
}

export class EventWriter {
  private readonly clicks = new EventBuffer<NewTrackerClick>('tracker_clicks');
  private readonly leads = new EventBuffer<NewTrackerLead>('tracker_leads');
  private readonly maxBatch: number;
  private readonly maxPending: number;
  private readonly timer: NodeJS.Timeout;
  /** The flush in progress; flushes run one at a time, in order. */
  private flushing: Promise<void> = Promise.resolve();
  private queued = false;
  private closed = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: EventWriterOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 1000;
    this.maxPending = options.maxPending ?? 200_000;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    this.timer.unref();
    const sqlite = options.sqlite;
    this.sqliteInsert = sqlite?.transaction((table: EventTable, rows: object[], deltas: RollupDelta[]) => {
      for (const row of rows) this.insertRow(sqlite, table, row as Record<string, unknown>);
      this.upsertRollup ??= sqlite.prepare(UPSERT_ONE);
      for (const delta of deltas) {
        this.upsertRollup.run(
          delta.cube,
          delta.bucket,
          delta.k1,
          delta.k2,
          delta.clicks,
          delta.unique_clicks,
          delta.cost,
          delta.leads,
        );
      }
    });
  }

  addClick(row: NewTrackerClick): void {
    this.add(this.clicks, row);
  }

  addLead(row: NewTrackerLead): void {
    this.add(this.leads, row);
  }

  /** Rows waiting to be written. */
  get pending(): number {
    return this.clicks.rows.length + this.leads.rows.length;
  }

  /** Writes every waiting row; resolves when they are stored (or have failed and wait for a retry). */
  flush(): Promise<void> {
    // A flush that has not started yet will write these rows too.
    if (this.queued) return this.flushing;
    this.queued = true;
    this.flushing = this.flushing.then(async () => {
      this.queued = false;
      await this.write(this.clicks);
      await this.write(this.leads);
    });
    return this.flushing;
  }

  /** Stops the timer and writes what waits. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.flush();
    if (this.pending > 0) {
      this.options.log?.error({ rows: this.pending }, 'tracker events could not be written before shutdown');
    }
  }

  private add<TRow>(buffer: EventBuffer<TRow>, row: TRow): void {
    buffer.rows.push(row);
    if (buffer.rows.length > this.maxPending) {
      const dropped = buffer.rows.length - this.maxPending;
      buffer.rows.splice(0, dropped);
      this.options.log?.error({ table: buffer.table, dropped }, 'tracker event buffer full; oldest rows dropped');
    }
    if (buffer.rows.length >= this.maxBatch && !this.closed) void this.flush();
  }

  private async write<TRow extends object>(buffer: EventBuffer<TRow>): Promise<void> {
    const chunk = this.options.sqlite ? SQLITE_CHUNK : INSERT_CHUNK;
    let first = true;
    while (buffer.rows.length > 0) {
      // Let requests that arrived meanwhile be answered before the next chunk.
      if (!first) await new Promise((resolve) => setImmediate(resolve));
      first = false;
      if (buffer.rows.length === 0) break;
      const batch = buffer.rows.splice(0, chunk);
      try {
        await this.insert(buffer.table, batch);
      } catch (error) {
        // Back to the front, in order, for the next flush.
        buffer.rows.unshift(...batch);
        this.options.log?.warn(
          { err: error, table: buffer.table, rows: batch.length },
          'tracker events not written; will retry',
        );
        return;
      }
    }
  }

  private insert(table: EventTable, rows: object[]): Promise<unknown> {
    const deltas =
      table === 'tracker_clicks'
        ? rollupDeltas(rows as NewTrackerClick[], [])
        : rollupDeltas([], rows as NewTrackerLead[]);
    const insertRows = this.sqliteInsert;
    if (!insertRows) {
      return this.db.transaction().execute(async (transaction) => {
        await transaction
          .insertInto(table)
          .values(rows as never)
          .execute();
        await applyRollupDeltas(transaction, deltas);
      });
    }
    // Holding Kysely's one connection: no Kysely transaction is open on it while this one runs.
    return this.db.connection().execute(async () => {
      const sqlite = this.options.sqlite as SQLite.Database;
      const previous = sqlite.pragma('synchronous', { simple: true });
      sqlite.pragma('synchronous = NORMAL');
      try {
        insertRows.immediate(table, rows, deltas);
      } finally {
        sqlite.pragma(`synchronous = ${Number(previous)}`);
      }
    });
  }

  /** One SQLite transaction (BEGIN IMMEDIATE, as Kysely's transactions here) inserting `rows`. */
  private readonly sqliteInsert:
    | SQLite.Transaction<(table: EventTable, rows: object[], deltas: RollupDelta[]) => void>
    | undefined;

  private upsertRollup: SQLite.Statement | undefined;

  /** Prepared INSERTs by table and column list (rows leave out columns that take their default). */
  private readonly statements = new Map<string, SQLite.Statement>();

  private insertRow(sqlite: SQLite.Database, table: EventTable, row: Record<string, unknown>): void {
    const columns: string[] = [];
    const values: unknown[] = [];
    for (const column in row) {
      const value = row[column];
      // As Kysely does: an undefined value leaves the column out.
      if (value === undefined) continue;
      columns.push(column);
      values.push(value);
    }
    const key = `${table}:${columns.join(',')}`;
    let statement = this.statements.get(key);
    if (!statement) {
      const names = columns.map((column) => `"${column.replaceAll('"', '""')}"`).join(', ');
      statement = sqlite.prepare(`insert into "${table}" (${names}) values (${columns.map(() => '?').join(', ')})`);
      this.statements.set(key, statement);
    }
    statement.run(values);
  }
}
